import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { Footer } from '@/app/layout/footer';
import layoutClasses from '@/app/layout/layout.module.css';
import { Hero } from './hero';
import homeClasses from './home.module.css';

// The style sheets as written: jsdom applies no CSS, so the rings are read from the rules themselves.
const homeCss = readFileSync(path.join(import.meta.dirname, 'home.module.css'), 'utf8');
const layoutCss = readFileSync(
  path.join(import.meta.dirname, '../../../app/layout/layout.module.css'),
  'utf8',
);

/** The declarations of the rule for exactly `selector`. */
function declarations(css: string, selector: string): Record<string, string> {
  const rules = css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g);
  const rule = [...rules].find((match) => match[1]!.trim() === selector);
  if (!rule) throw new Error(`No rule for ${selector}`);
  return Object.fromEntries(
    rule[2]!
      .split(';')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      }),
  );
}

const NAMED: Record<string, string> = { 'var(--mantine-color-white)': '#ffffff' };

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => {
    const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The focus ring's colour, from `outline: 3px solid <colour>`. */
function ringColour(css: string, selector: string): string {
  const { outline } = declarations(css, selector);
  const colour = outline?.replace(/^\S+\s+solid\s+/, '') ?? '';
  return NAMED[colour] ?? colour;
}

/** Every #rrggbb of the background behind the ring. */
function backgroundColours(css: string, selector: string): string[] {
  const { background } = declarations(css, selector);
  return background?.match(/#[0-9a-f]{6}/gi) ?? [];
}

describe('focus rings on the red hero and the dark footer (WCAG 1.4.11, 2.4.7)', () => {
  it('gives the hero buttons a ring of at least 3:1 against every shade of the hero', () => {
    mockApi({});
    renderScreen(<Hero />);
    for (const name of ['Become a Donor', 'Register as Patient']) {
      expect(screen.getByRole('link', { name })).toHaveClass(homeClasses.heroAction!);
    }
    const ring = ringColour(homeCss, '.hero .heroAction:focus-visible');
    const shades = backgroundColours(homeCss, '.hero');
    expect(shades.length).toBeGreaterThan(0);
    for (const shade of shades) expect(contrast(ring, shade)).toBeGreaterThanOrEqual(3);
    // Set off from the button, so it is not drawn on the white button's own edge.
    expect(
      parseFloat(declarations(homeCss, '.hero .heroAction:focus-visible')['outline-offset']!),
    ).toBeGreaterThan(0);
  });

  it('gives the footer links a ring of at least 3:1 against the footer', async () => {
    mockApi({});
    renderScreen(<Footer />);
    await screen.findByRole('link', { name: 'Home' });
    for (const link of screen.getAllByRole('link')) expect(link).toHaveClass(layoutClasses.footerLink!);
    const ring = ringColour(layoutCss, '.footer .footerLink:focus-visible');
    const [footer] = backgroundColours(layoutCss, '.footer');
    expect(contrast(ring, footer!)).toBeGreaterThanOrEqual(3);
  });
});
