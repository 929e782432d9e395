/**
 * The command palette's store (spec §2.10), apart from the palette itself: the shell opens it at
 * once (Ctrl/Cmd+K, the search icon) while the palette's code, with its modal and search, loads
 * after the first page (issue 18 §1: it is not part of the first page's JavaScript).
 */
import { createSpotlight } from '@mantine/spotlight';

export const [paletteStore, paletteActions] = createSpotlight();

/** Ctrl/Cmd+K, also inside inputs, as the palette itself listens once loaded. */
export const PALETTE_SHORTCUT = 'mod + K';
