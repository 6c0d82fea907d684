import { soleOperationName } from '../../admin-ui/src/sole-operation-name';

/** The console tells GraphiQL which operation to run only when the document leaves no doubt. */
describe('the operation the console runs', () => {
  test('is the only operation of a preset, fragments aside', () => {
    expect(soleOperationName('query CurrentAdmin { currentAdmin { ...A } }\nfragment A on Admin { id }')).toBe('CurrentAdmin');
  });

  test('is left to GraphiQL when the document has several operations, an unnamed one or does not parse', () => {
    expect(soleOperationName('query A { a } query B { b }')).toBeUndefined();
    expect(soleOperationName('{ currentAdmin { id } }')).toBeUndefined();
    expect(soleOperationName('query Half { currentAdmin {')).toBeUndefined();
  });
});
