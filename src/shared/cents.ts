/**
 * Sums of integer cents can pass 2^53 (a JavaScript number's exact range) while each amount stays below it,
 * so every sum is a bigint: PostgreSQL sums bigint columns as `numeric` (exact), which the driver hands
 * over as a string, read here without a detour through `number`. GraphQL carries them as `BigInt`
 * (graphql-scalars): a JSON number while within ±(2^53−1), a string of digits beyond it.
 */
export type Cents = bigint;

export function exactCents(sqlSum: string | number | bigint | null): Cents {
  return sqlSum === null ? 0n : BigInt(sqlSum);
}
