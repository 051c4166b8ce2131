/**
 * An example app: a sign-up screen that asks for consent to the terms before the account is made.
 * <ClickwrapProvider> is mounted once around the app; the screen calls ClickwrapClient.show().
 */
import React from 'react';
import { StyleSheet, View } from 'react-native';
import { ClickwrapClient, ClickwrapProvider } from '@clickwrap/react-native';

import { SignUpScreen } from './SignUpScreen';

// The App ID is public; the App Key stays on your backend.
ClickwrapClient.initialize('YOUR_APP_ID', { baseUrl: 'https://consent.example.com', locale: 'en' });

export default function App() {
  return (
    <ClickwrapProvider>
      <View style={styles.root}>
        <SignUpScreen />
      </View>
    </ClickwrapProvider>
  );
}

const styles = StyleSheet.create({ root: { flex: 1, paddingTop: 48 } });
