interface KeyringEntry {
  getPassword(): string | null;
  setPassword(secret: string): void;
  deletePassword(): boolean;
}
export type EntryClass = new (service: string, account: string, options: object) => KeyringEntry;
export function serve(load: (request: { moduleUrl?: string }) => Promise<EntryClass>): Promise<void>;
