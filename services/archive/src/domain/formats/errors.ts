/** The upload cannot be imported as it is (the import ends `failed` with this message). */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}
