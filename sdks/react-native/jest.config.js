// The tests run on the TypeScript sources in Node, with React Native's jest preset (no device).
module.exports = {
  preset: '@react-native/jest-preset',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  setupFilesAfterEnv: ['<rootDir>/tests/setup.ts'],
  // The real-server suite waits for real HTTP round trips.
  testTimeout: 30000,
};
