/**
 * <ClickwrapProvider>: hosts the SDK's dialog. Mount it once, near the root of the app, around
 * everything else; ClickwrapClient.show() and showAcceptedContent() open their dialog in it.
 */
import React from 'react';

import { setDialogHost } from './client';
import { ClickwrapDialog, type DialogRequest } from './dialog';
import { userCancelled } from './errors';

export function ClickwrapProvider({ children }: { children?: React.ReactNode }) {
  const [dialog, setDialog] = React.useState<{ id: number; request: DialogRequest } | null>(null);
  const open = React.useRef<DialogRequest | null>(null);

  React.useEffect(() => {
    let count = 0;
    setDialogHost((request) => {
      count += 1;
      const id = count;
      const done = () => {
        open.current = null;
        setDialog((current) => (current?.id === id ? null : current));
      };
      const wrapped: DialogRequest = {
        ...request,
        onFinish: (value) => {
          done();
          request.onFinish(value);
        },
        onFail: (error) => {
          done();
          request.onFail(error);
        },
        onCancel: () => {
          done();
          request.onCancel();
        },
      };
      open.current = wrapped;
      setDialog({ id, request: wrapped });
    });
    return () => {
      setDialogHost(null);
      // The app went away with a dialog open: the caller learns the user did not decide.
      open.current?.onFail(userCancelled());
    };
  }, []);

  return (
    <>
      {children}
      {dialog ? <ClickwrapDialog key={dialog.id} request={dialog.request} /> : null}
    </>
  );
}
