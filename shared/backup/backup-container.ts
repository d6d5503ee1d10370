import type { ContainerClient } from '@azure/storage-blob';
import { Settings } from '../config/settings';
import { identity, storageBlob } from '../store/azure-sdk';

/** Where backups are configured: a connection string (Azurite, a workstation) or an endpoint reached by identity. */
export type BackupSettings = Pick<Settings, 'BACKUP_STORAGE' | 'BACKUP_BLOB_ENDPOINT' | 'BACKUP_CONTAINER'>;

class BackupNotConfigured extends Error {
  constructor() {
    super('table backups are not configured: set BACKUP_STORAGE (a connection string) or BACKUP_BLOB_ENDPOINT');
    this.name = 'BackupNotConfigured';
  }
}

/**
 * The backup container, in an account of its own in Azure (infra/modules/backup.bicep): versioned and immutable for
 * the legal retention, so neither the app's identity nor a mistake in the data account can take a backup away. In
 * Azure the endpoint is the account's own (its primaryEndpoints.blob, passed by the templates), whatever the cloud.
 */
export function backupContainer(s: BackupSettings): ContainerClient {
  const sdk = storageBlob();
  if (s.BACKUP_STORAGE) {
    return sdk.BlobServiceClient.fromConnectionString(s.BACKUP_STORAGE).getContainerClient(s.BACKUP_CONTAINER);
  }
  if (s.BACKUP_BLOB_ENDPOINT) {
    const service = new sdk.BlobServiceClient(s.BACKUP_BLOB_ENDPOINT, new (identity().DefaultAzureCredential)());
    return service.getContainerClient(s.BACKUP_CONTAINER);
  }
  throw new BackupNotConfigured();
}
