import { parseSettings } from '../../shared/config/config';
import { parseStorageAccounts, tableEndpointOf } from '../../shared/config/storage-accounts';
import { hashedAccount } from '../../shared/store/farm-accounts';

const azurite = (port: number) =>
  `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:${port}/devstoreaccount1`;

describe('STORAGE_ACCOUNTS (issue 37: farms spread over data accounts)', () => {
  it('unset: the one account AzureWebJobsStorage names, by connection string or by name with the identity', () => {
    expect(parseStorageAccounts({ AzureWebJobsStorage: azurite(10002) })).toEqual({
      accounts: [{ connectionString: azurite(10002) }],
    });
    expect(parseStorageAccounts({ AzureWebJobsStorage__accountName: 'stdata' })).toEqual({
      accounts: [{ endpoint: 'https://stdata.table.core.windows.net' }],
    });
  });

  it('takes endpoints (managed identity) and connection strings, in order, the first the AzureWebJobsStorage one', () => {
    const parsed = parseStorageAccounts({
      AzureWebJobsStorage__accountName: 'stdata',
      STORAGE_ACCOUNTS: 'https://stdata.table.core.windows.net, https://stdata2.table.core.windows.net/',
    });
    expect(parsed).toEqual({
      accounts: [
        { endpoint: 'https://stdata.table.core.windows.net' },
        { endpoint: 'https://stdata2.table.core.windows.net' },
      ],
    });
    expect(
      parseStorageAccounts({
        AzureWebJobsStorage: azurite(10002),
        STORAGE_ACCOUNTS: `${azurite(10002)},${azurite(20002)}`,
      }),
    ).toEqual({ accounts: [{ connectionString: azurite(10002) }, { connectionString: azurite(20002) }] });
  });

  it('refuses a first account other than the one AzureWebJobsStorage names, naming both', () => {
    expect(() =>
      parseSettings({ AzureWebJobsStorage: azurite(10002), STORAGE_ACCOUNTS: `${azurite(20002)},${azurite(10002)}` }),
    ).toThrow(
      /STORAGE_ACCOUNTS: the first account \(http:\/\/127\.0\.0\.1:20002\/devstoreaccount1\).*\(http:\/\/127\.0\.0\.1:10002/,
    );
    expect(() =>
      parseSettings({
        AzureWebJobsStorage__accountName: 'stdata',
        STORAGE_ACCOUNTS: 'https://stother.table.core.windows.net',
      }),
    ).toThrow(/stother.*stdata\.table\.core\.windows\.net/);
  });

  it('refuses an entry that is neither an endpoint nor a connection string, and an account listed twice', () => {
    expect(() =>
      parseSettings({
        AzureWebJobsStorage__accountName: 'stdata',
        STORAGE_ACCOUNTS: 'https://stdata.table.core.windows.net,stdata2',
      }),
    ).toThrow(/STORAGE_ACCOUNTS: entry 2: expected a table endpoint/);
    expect(() =>
      parseSettings({ AzureWebJobsStorage: azurite(10002), STORAGE_ACCOUNTS: `${azurite(10002)},${azurite(10002)}` }),
    ).toThrow(/entry 2 .* names an account listed before it/);
  });

  it('knows an account by its table endpoint, whatever the spelling of its connection string', () => {
    expect(tableEndpointOf({ connectionString: 'UseDevelopmentStorage=true' })).toBe(
      'http://127.0.0.1:10002/devstoreaccount1',
    );
    expect(
      tableEndpointOf({ connectionString: 'AccountKey=a2V5;AccountName=StData;DefaultEndpointsProtocol=https' }),
    ).toBe(tableEndpointOf({ endpoint: 'https://stdata.table.core.windows.net' }));
  });
});

describe('hashedAccount: the account a new farm is recorded in', () => {
  it('is the same for a REA in every process and after every restart (a pure function of the REA and the count)', () => {
    // Fixed values: a change of the hash would move every unrecorded farm, so it must fail here first.
    expect([1, 2, 3].map((n) => hashedAccount('ES280790000004', n))).toEqual([0, 1, 0]);
    expect([1, 2, 3].map((n) => hashedAccount('ES280790000005', n))).toEqual([0, 0, 2]);
  });

  it('spreads farms over the accounts', () => {
    for (const count of [2, 3, 5]) {
      const per = new Array<number>(count).fill(0);
      for (let i = 0; i < 3000; i++) per[hashedAccount(`ES${String(280790000000 + i)}`, count)]++;
      for (const n of per) expect(Math.abs(n - 3000 / count)).toBeLessThan((3000 / count) * 0.15);
    }
  });
});
