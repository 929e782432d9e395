import { createTheme, defaultVariantColorsResolver, parseThemeColor, type MantineThemeOverride, type VariantColorsResolver } from '@mantine/core';

const channels = (hex: string): [number, number, number] => {
  const value = Number.parseInt(hex.replace('#', '').slice(0, 6), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
};
/** WCAG 2.2 relative luminance of an sRGB colour. */
const luminance = ([r, g, b]: [number, number, number]) => {
  const linear = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
};
const contrast = (a: [number, number, number], b: [number, number, number]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** `text` darkened in steps of 8 % until it reads at 4.6:1 on `background` (WCAG 2.2 AA asks 4.5:1). */
function readableOn(text: string, background: string): string {
  let rgb = channels(text);
  const bg = channels(background);
  for (let step = 0; step < 30 && contrast(rgb, bg) < 4.6; step += 1) rgb = rgb.map((c) => Math.round(c * 0.92)) as [number, number, number];
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Text on light, subtle and outline variants dark enough to read at 4.5:1 (Mantine's shade 6 on
 * its light tint reads at about 3:1, yellow at 2:1): the colour's shade 9, darkened where even that
 * is too light (issue 17 §4, checked by axe in e2e).
 */
const readableVariants: VariantColorsResolver = (input) => {
  const defaults = defaultVariantColorsResolver(input);
  if (input.variant !== 'light' && input.variant !== 'subtle' && input.variant !== 'outline') return defaults;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  const palette = parsed.isThemeColor ? input.theme.colors[parsed.color] : undefined;
  if (!palette) return defaults;
  // The light variant's background is the colour's shade 1 in this Mantine; the others sit on white.
  const text = readableOn(palette[9], input.variant === 'light' ? palette[1] : '#ffffff');
  return { ...defaults, color: text, hoverColor: text, ...(input.variant === 'outline' ? { border: `1px solid ${text}` } : {}) };
};

/**
 * Mantine defaults with one primary colour; calm and dense enough for accountants. The primary
 * shade is 8 so white text on buttons and links on white reach 4.5:1; `labels` are the accessible
 * names of Mantine's own icon buttons (clear, close), in the UI's language.
 */
export function themeFor(labels: { clear: string; close: string }): MantineThemeOverride {
  return createTheme({
    primaryColor: 'indigo',
    primaryShade: 8,
    // Filled colours take black or white text, whichever reads at 4.5:1 or more: the two are equal at
    // a background luminance of 0.179 ((1.05 / (L + 0.05)) = ((L + 0.05) / 0.05)).
    autoContrast: true,
    luminanceThreshold: 0.179,
    variantColorResolver: readableVariants,
    defaultRadius: 'sm',
    cursorType: 'pointer',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '600' },
    components: {
      Table: { defaultProps: { verticalSpacing: 6, horizontalSpacing: 'sm' } },
      // Sentence case reads calmer than Mantine's upper-case badges ('Balanced').
      Badge: { defaultProps: { tt: 'none' } },
      // A link in running text is told apart by more than its colour (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
      // FileInput draws its placeholder as text, which must read at 4.5:1 like any other.
      FileInput: { styles: { placeholder: { color: 'var(--mantine-color-gray-7)' } } },
      Select: { defaultProps: { clearButtonProps: { 'aria-label': labels.clear } } },
      MultiSelect: { defaultProps: { clearButtonProps: { 'aria-label': labels.clear } } },
      DateInput: { defaultProps: { clearButtonProps: { 'aria-label': labels.clear } } },
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } },
    },
  });
}
