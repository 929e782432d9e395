/** Saves a blob as a download named `fileName` (the browser's own "save file" path). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers start reading the object URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
