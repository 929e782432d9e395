import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The built app is served by the Fastify server (apps/server/src/http/web-app.ts) under a strict
// CSP (script-src 'self'): nothing here may emit an inline script.
const backend = 'http://localhost:3000';
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    // One copy of React and Mantine even if a workspace hoists another version (one context each).
    dedupe: ['react', 'react-dom', '@mantine/core', '@mantine/hooks', '@mantine/dates'],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/napi': { target: backend, changeOrigin: false },
      '/oidc': { target: backend, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
  },
});
