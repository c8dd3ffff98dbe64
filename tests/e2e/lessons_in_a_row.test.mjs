// All twelve lessons taken in order in one page at 1280×720, in the light scheme, as a
// learner does (lessons_in_a_row_dark.test.mjs takes them in the dark one; a file each so that the two
// can run side by side). Each lesson starts live with nothing selected, shows only its own
// requests and tasks, and at each reveal the answer, the part and its inspector share one
// screen with labels ≥ 11 px and axe-core finds nothing; then the recap and its links.
import { test } from 'node:test';
import { demoAndBrowser } from './support.mjs';
import { walkAllLessons } from './lesson_walk.mjs';

const app = demoAndBrowser();

test('all the lessons in a row in one page, light: each live from its start, each reveal on one screen, then the recap', async () => {
  await walkAllLessons(app, 'light');
});
