/**
 * Jest runs this before every test file: passwords hash with scrypt's test work (about 1 ms, not 100-200 ms), as
 * Rails' `min_cost` does. A test about hashing itself goes back to production's work (`lowerPasswordWorkForTests(false)`).
 */
import { lowerPasswordWorkForTests } from '../../src/modules/identity/password';

lowerPasswordWorkForTests(true);
