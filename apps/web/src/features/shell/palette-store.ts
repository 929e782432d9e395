/**
 * The command palette's store (spec §2.10), apart from the palette itself, so the shell's search
 * icon opens it without depending on the palette's code. The palette stays on the first page: a
 * palette loaded later lost the keys typed right after Ctrl+K (seen in the accessibility spec).
 */
import { createSpotlight } from '@mantine/spotlight';

export const [paletteStore, paletteActions] = createSpotlight();

/** Ctrl/Cmd+K, also inside inputs, as the palette itself listens once loaded. */
export const PALETTE_SHORTCUT = 'mod + K';
