import { useRouteRecord } from '@/core/use-route-record';
import { ChangePasswordForm } from '@/features/account/ChangePasswordForm';
import { useSignedInUser } from '@/features/account/use-signed-in';

export default function ChangePassword() {
  useRouteRecord();
  const user = useSignedInUser();
  return user ? <ChangePasswordForm /> : null;
}
