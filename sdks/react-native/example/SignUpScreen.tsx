import React from 'react';
import { ActivityIndicator, Button, StyleSheet, Text, TextInput, View } from 'react-native';
import { ClickwrapClient, ClickwrapError, type ShowResult } from '@clickwrap/react-native';

const TERMS_TEMPLATE_ID = '0190a0b0-0000-7000-8000-000000000001';
/** Your backend's route that verifies the Signature with the App Key (see backend/verify-consent.ts). */
const CONSENT_URL = 'https://api.example.com/consents';

type Step = { kind: 'form' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

export function SignUpScreen() {
  const [name, setName] = React.useState('');
  const [email, setEmail] = React.useState('');
  const [step, setStep] = React.useState<Step>({ kind: 'form' });

  async function signUp() {
    setStep({ kind: 'busy' });
    // Before the account exists there is no user id yet: use one you can map to the account later.
    const endUserId = email.trim().toLowerCase();
    let result: ShowResult;
    try {
      result = await ClickwrapClient.show(
        { clickwrapTemplateId: TERMS_TEMPLATE_ID, endUserId, templatePlaceholders: { fullName: name, email } },
        { disableClose: false },
      );
    } catch (error) {
      if (error instanceof ClickwrapError && error.code === 'ERR_SERVICE_USER_CANCELLED') {
        setStep({ kind: 'form' });
        return;
      }
      const code = error instanceof ClickwrapError ? error.code : 'unknown';
      setStep({ kind: 'error', message: `The terms could not be shown (${code}). Please try again.` });
      return;
    }
    if (result.isAlreadyAccepted) {
      setStep({ kind: 'done', message: 'Welcome back: you already accepted the current terms.' });
      return;
    }
    // Accepted or declined, the Signature goes to your backend, which verifies it.
    const response = await fetch(CONSENT_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endUserId, serviceSignature: result.serviceSignature }),
    });
    if (!response.ok) {
      setStep({ kind: 'error', message: 'Your choice could not be confirmed. Please try again.' });
    } else if (result.action === 'ACCEPTED') {
      setStep({ kind: 'done', message: `Thank you, ${name}. Your account is ready.` });
    } else {
      setStep({ kind: 'error', message: 'You need to accept the terms to create an account.' });
    }
  }

  function showTerms() {
    ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: TERMS_TEMPLATE_ID, endUserId: email.trim().toLowerCase() })
      .catch((error: ClickwrapError) => setStep({ kind: 'error', message: `No accepted terms to show (${error.code}).` }));
  }

  return (
    <View style={styles.screen}>
      <Text accessibilityRole="header" style={styles.title}>Create your account</Text>
      <TextInput accessibilityLabel="Full name" placeholder="Full name" value={name} onChangeText={setName} style={styles.input} />
      <TextInput accessibilityLabel="Email" placeholder="Email" value={email} onChangeText={setEmail} autoCapitalize="none"
        keyboardType="email-address" style={styles.input} />
      {step.kind === 'busy' ? <ActivityIndicator /> : <Button title="Sign up" onPress={signUp} disabled={!name || !email} />}
      {step.kind === 'done' || step.kind === 'error' ? <Text accessibilityRole="alert" style={styles.message}>{step.message}</Text> : null}
      {step.kind === 'done' ? <Button title="Show the terms I accepted" onPress={showTerms} /> : null}
    </View>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, padding: 24, gap: 12, justifyContent: 'center' },
  title: { fontSize: 24, fontWeight: '600' },
  input: { borderWidth: 1, borderColor: '#9ca3af', borderRadius: 8, padding: 12, fontSize: 16 },
  message: { fontSize: 15 },
});
