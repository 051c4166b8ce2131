// Used by jest only (the package itself is built by tsc): React Native's own Babel preset, which
// understands TypeScript and JSX the way Metro does in an app.
module.exports = {
  presets: ['module:@react-native/babel-preset'],
};
