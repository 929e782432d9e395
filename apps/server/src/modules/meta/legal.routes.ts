/**
 * The Terms and Conditions the sign-up checkbox refers to (spec §2.8 "I read and agree to the Terms
 * and Conditions"; issue 16 §5). The operator supplies them as a Markdown file (BILAN_TERMS_FILE);
 * without it, the default shipped in assets/legal/terms.md.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConfigError } from '../../config.js';

/** The shipped default, relative to this file (src/modules/meta and dist/modules/meta alike). */
export const DEFAULT_TERMS_FILE = resolve(import.meta.dirname, '../../../assets/legal/terms.md');

export interface Terms {
  /** Markdown: '#'/'##' headings and paragraphs separated by blank lines. */
  text: string;
  /** 'operator' when BILAN_TERMS_FILE gave them, else 'default'. */
  source: 'operator' | 'default';
  /** Last change of the file, YYYY-MM-DD. */
  updated: string;
}

/** Reads the terms once at start-up; an unreadable BILAN_TERMS_FILE stops the start with its path. */
export function loadTerms(file: string | undefined): Terms {
  const path = file ?? DEFAULT_TERMS_FILE;
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (!text) throw new Error('the file is empty');
    return { text, source: file ? 'operator' : 'default', updated: statSync(path).mtime.toISOString().slice(0, 10) };
  } catch (error) {
    throw new ConfigError(`Invalid environment:\n  BILAN_TERMS_FILE: cannot read ${path}: ${(error as Error).message}`);
  }
}

export const legalRoutes: FastifyPluginAsyncZod<{ terms: Terms }> = async (app, { terms }) => {
  app.get(
    '/meta/terms',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        security: [],
        description: 'The Terms and Conditions of this installation (Markdown), public: the sign-up checkbox links to them.',
        response: { 200: z.object({ text: z.string(), source: z.enum(['operator', 'default']), updated: z.string() }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return terms;
    },
  );
};
