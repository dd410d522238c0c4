import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'media',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
