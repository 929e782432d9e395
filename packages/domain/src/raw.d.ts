/** Vite's `?raw` import (tests only): the file's text. */
declare module '*.txt?raw' {
  const text: string;
  export default text;
}
