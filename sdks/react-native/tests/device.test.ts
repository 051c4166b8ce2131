/** What clientMetadata reports about the device on each platform. */
import { Platform } from 'react-native';

import { clientMetadata } from '../src/device';

/** Makes Platform look like `os` with these constants until the test ends. */
function pretend(os: string, version: string | number, constants: Record<string, unknown>) {
  jest.replaceProperty(Platform, 'OS', os as typeof Platform.OS);
  jest.spyOn(Platform, 'Version', 'get').mockReturnValue(version);
  jest.spyOn(Platform, 'constants', 'get').mockReturnValue(constants as typeof Platform.constants);
}

afterEach(() => jest.restoreAllMocks());

test("on Android, osVersion is the release (14), not the API level Platform.Version gives (34)", () => {
  pretend('android', 34, { Release: '14', Model: 'Pixel 8', Manufacturer: 'Google' });
  expect(clientMetadata()).toMatchObject({ platform: 'android', osVersion: '14', model: 'Pixel 8', manufacturer: 'Google' });
});

test('on Android without a release, osVersion falls back to the API level', () => {
  pretend('android', 34, {});
  expect(clientMetadata()).toMatchObject({ platform: 'android', osVersion: '34' });
});

test('on iOS, osVersion is Platform.Version (17.4)', () => {
  pretend('ios', '17.4', { interfaceIdiom: 'phone', osVersion: '17.4' });
  expect(clientMetadata()).toMatchObject({ platform: 'ios', osVersion: '17.4', deviceType: 'phone' });
});
