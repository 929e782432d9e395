/** Test helper shared by the schema tests: the `fields` a server would answer for `input`. */
import type { z } from 'zod';
import { fieldErrors } from '../validators/common.js';

export const errorsOf = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};
