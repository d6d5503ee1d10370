import type { ContainerClient } from '@azure/storage-blob';
import { Settings } from '../config/settings';
import { identity, storageBlob } from '../store/azure-sdk';

/** Where backups are configured: a connection string (Azurite, a workstation) or an account reached by identity. */
export type BackupSettings = Pick<Settings, 'BACKUP_STORAGE' | 'BACKUP_ACCOUNT_NAME' | 'BACKUP_CONTAINER'>;

class BackupNotConfigured extends Error {
  constructor() {
    super('table backups are not configured: set BACKUP_STORAGE (a connection string) or BACKUP_ACCOUNT_NAME');
    this.name = 'BackupNotConfigured';
  }
}

/**
 * The backup container, in an account of its own in Azure (infra/modules/backup.bicep): versioned and immutable for
 * the legal retention, so neither the app's identity nor a mistake in the data account can take a backup away.
 */
export function backupContainer(s: BackupSettings): ContainerClient {
  const sdk = storageBlob();
  if (s.BACKUP_STORAGE) {
    return sdk.BlobServiceClient.fromConnectionString(s.BACKUP_STORAGE).getContainerClient(s.BACKUP_CONTAINER);
  }
  if (s.BACKUP_ACCOUNT_NAME) {
    const service = new sdk.BlobServiceClient(
      `https://${s.BACKUP_ACCOUNT_NAME}.blob.core.windows.net`,
      new (identity().DefaultAzureCredential)(),
    );
    return service.getContainerClient(s.BACKUP_CONTAINER);
  }
  throw new BackupNotConfigured();
}
