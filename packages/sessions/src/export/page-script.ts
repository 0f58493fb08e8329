/**
 * The page's script (inline, hashed into the Content-Security-Policy, so it is the only script that can
 * run). It reads the turns from a JSON island and builds the page with DOM calls only: every transcript
 * string reaches the page through textContent / createTextNode, never as markup, and the only attribute
 * set from transcript data is a link's href, after checking that it is http(s).
 *
 * Turns are rendered in chunks as the reader scrolls (an IntersectionObserver on a sentinel), so a
 * 10,000-turn session paints its first screen at once. Search runs over the data, not the DOM, and renders
 * up to the match it shows. With `meta.live`, an EventSource replaces or appends turns as the server
 * sends them. Kept to ES2017 and plain string concatenation (it lives in a template string).
 */
import { SCRIPT_BROWSE } from './page-script-browse.js'
import { SCRIPT_FILTERS } from './page-script-filters.js'
import { SCRIPT_ITEMS } from './page-script-items.js'
import { SCRIPT_LIVE } from './page-script-live.js'
import { SCRIPT_RENDER } from './page-script-render.js'
import { SCRIPT_SHELL } from './page-script-shell.js'

/** The page's one script: its parts in order, in one function scope (the CSP allows it by its hash). */
export const PAGE_SCRIPT =
  "(function () {\n'use strict';\n" +
  SCRIPT_RENDER +
  SCRIPT_ITEMS +
  SCRIPT_SHELL +
  SCRIPT_FILTERS +
  SCRIPT_BROWSE +
  SCRIPT_LIVE +
  '})();\n'
