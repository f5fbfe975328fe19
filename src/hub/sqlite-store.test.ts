import { testHubStoreContract } from '../../test/support/hub-store-contract.ts';
import { SqliteHubStore } from './sqlite-store.ts';

testHubStoreContract(async () => new SqliteHubStore(':memory:'));
