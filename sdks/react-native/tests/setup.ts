import { configure } from '@testing-library/react-native';

// `findBy…` waits up to one second by default; on a busy CI machine a dialog may take longer to
// appear than that without anything being wrong, so the wait is generous (a test that fails still
// fails, later).
configure({ asyncUtilTimeout: 10000 });
