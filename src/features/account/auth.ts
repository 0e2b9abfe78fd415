import { returnAfterLogin } from '@/core/navigation';
import { post } from '@/core/request';
import { MINE_PAGE } from '@/core/routes';
import { type SignedInUser, customerAtom, signIn, signOut } from '@/state/customer';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';

export interface LoginForm {
  email: string;
  password: string;
}

export type LoginErrors = Partial<Record<keyof LoginForm, string>>;

export const EMAIL_REQUIRED = 'Please enter your email';
export const EMAIL_INVALID = 'Please enter a valid email address';
export const PASSWORD_REQUIRED = 'Please enter your password';
export const LOGIN_FAILED = 'Login failed, please try again';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email field's error, or '' when it is a plausible address. */
export function emailError(value: string): string {
  const email = value.trim();
  if (email === '') return EMAIL_REQUIRED;
  if (!EMAIL_PATTERN.test(email) || email.length > 254) return EMAIL_INVALID;
  return '';
}

/** Field errors of the login form; empty when it can be sent. */
export function validateLogin(form: LoginForm): LoginErrors {
  const errors: LoginErrors = {};
  const email = emailError(form.email);
  if (email) errors.email = email;
  if (form.password === '') errors.password = PASSWORD_REQUIRED;
  return errors;
}

/** Signs in and stores the user with its token. */
export async function login(form: LoginForm): Promise<SignedInUser> {
  const user = await post('/api/auth/login', { email: form.email.trim(), password: form.password });
  signIn(user);
  return user;
}

/** The message to show for a failed call: the server's msg when it sent one. */
export function loginFailureMessage(failure: unknown, fallback = LOGIN_FAILED): string {
  if (typeof failure === 'object' && failure !== null && 'msg' in failure) {
    const { msg } = failure as { msg: unknown };
    if (typeof msg === 'string' && msg !== '') return msg;
  }
  return fallback;
}

/**
 * Splits a server failure such as `{status: 409, msg: 'email: an account ... exists'}` into the field it names
 * and a message for the user, so it can be shown next to that field.
 */
export function fieldFailure(failure: unknown, fallback: string): { field: string; message: string } {
  const text = loginFailureMessage(failure, fallback);
  const match = /^([a-z_]+): (.+)$/.exec(text);
  if (!match) return { field: '', message: text };
  const message = match[2];
  return { field: match[1], message: message.charAt(0).toUpperCase() + message.slice(1) };
}

/* ---------------------------------------------------------------- passwords */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PASSWORD_TOO_SHORT = `Use at least ${PASSWORD_MIN} characters`;
export const PASSWORD_TOO_LONG = `Use at most ${PASSWORD_MAX} characters`;
export const PASSWORD_NEEDS_LETTER_AND_DIGIT = 'Use at least one letter and one digit';
export const CONFIRM_REQUIRED = 'Please enter the password again';
export const CONFIRM_MISMATCH = 'The two passwords do not match';
export const OLD_PASSWORD_REQUIRED = 'Please enter your current password';
export const SAME_PASSWORD = 'The new password must differ from the current one';
export const CODE_INVALID = 'Enter the 6-digit code from the email';

/** The rule the server applies to a new password: 8 to 128 characters with a letter and a digit. */
export function newPasswordError(password: string): string {
  if (password === '') return PASSWORD_REQUIRED;
  if ([...password].length < PASSWORD_MIN) return PASSWORD_TOO_SHORT;
  if ([...password].length > PASSWORD_MAX) return PASSWORD_TOO_LONG;
  if (!/\p{L}/u.test(password) || !/\d/.test(password)) return PASSWORD_NEEDS_LETTER_AND_DIGIT;
  return '';
}

export function confirmError(password: string, confirm: string): string {
  if (confirm === '') return CONFIRM_REQUIRED;
  return confirm === password ? '' : CONFIRM_MISMATCH;
}

/** Drops the fields without an error, so `Object.keys(errors).length === 0` means the form can be sent. */
export function onlyErrors<K extends string>(errors: Record<K, string>): Partial<Record<K, string>> {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== '')) as Partial<
    Record<K, string>
  >;
}

/* ---------------------------------------------------------------- registration */

export interface RegisterForm {
  email: string;
  nickname: string;
  password: string;
  confirm: string;
}

export type RegisterErrors = Partial<Record<keyof RegisterForm, string>>;

export const EMAIL_TAKEN = 'An account with this email already exists';
export const NICKNAME_TOO_LONG = 'Use at most 40 characters';
export const REGISTER_FAILED = 'Registration failed, please try again';

export function validateRegister(form: RegisterForm): RegisterErrors {
  return onlyErrors({
    email: emailError(form.email),
    nickname: form.nickname.trim().length > 40 ? NICKNAME_TOO_LONG : '',
    password: newPasswordError(form.password),
    confirm: confirmError(form.password, form.confirm),
  });
}

export async function accountExists(email: string): Promise<boolean> {
  const answer = await post('/api/auth/check_account', { email: email.trim() }, { loading: false });
  return answer.exists;
}

/** Creates the account and signs the new user in. */
export async function register(form: RegisterForm): Promise<SignedInUser> {
  const nickname = form.nickname.trim();
  const user = await post('/api/auth/register', {
    email: form.email.trim(),
    password: form.password,
    ...(nickname ? { nickname } : {}),
  });
  signIn(user);
  return user;
}

/** After a sign-in outside the login page: the remembered protected page, else Mine. */
export function continueAfterSignIn(): Promise<unknown> {
  if (appStore.get(customerAtom).toPage) return returnAfterLogin();
  return Taro.switchTab({ url: MINE_PAGE });
}

/* ---------------------------------------------------------------- password recovery */

export const PASSWORD_RESET_DONE = 'Password changed, please sign in';
export const RESET_FAILED = 'The password could not be changed, please try again';

/** Mails a verification code and remembers, for this session, which address is being recovered. */
export async function sendResetCode(email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  await post('/api/auth/forget_password', { email: address });
  appStore.set(customerAtom, { resetPassword: true, resetPasswordEmail: address });
}

export function forgetResetRequest(): void {
  appStore.set(customerAtom, { resetPassword: false, resetPasswordEmail: '' });
}

export interface ResetForm {
  code: string;
  password: string;
  confirm: string;
}

export type ResetErrors = Partial<Record<keyof ResetForm, string>>;

export function validateReset(form: ResetForm): ResetErrors {
  return onlyErrors({
    code: /^\d{6}$/.test(form.code.trim()) ? '' : CODE_INVALID,
    password: newPasswordError(form.password),
    confirm: confirmError(form.password, form.confirm),
  });
}

export async function resetPassword(email: string, form: ResetForm): Promise<void> {
  await post('/api/user/change_password_with_verification_code', {
    email,
    code: form.code.trim(),
    new_password: form.password,
  });
  forgetResetRequest();
}

/* ---------------------------------------------------------------- signed-in user */

export interface ChangePasswordForm {
  old: string;
  password: string;
  confirm: string;
}

export type ChangePasswordErrors = Partial<Record<keyof ChangePasswordForm, string>>;

export function validateChangePassword(form: ChangePasswordForm): ChangePasswordErrors {
  const password = newPasswordError(form.password);
  return onlyErrors({
    old: form.old === '' ? OLD_PASSWORD_REQUIRED : '',
    password: password || (form.old !== '' && form.old === form.password ? SAME_PASSWORD : ''),
    confirm: confirmError(form.password, form.confirm),
  });
}

/** Changes the password; the server ends every other session and hands back a fresh token, stored here. */
export async function changePassword(form: ChangePasswordForm): Promise<SignedInUser> {
  const user = await post('/api/user/change_password', {
    old_password: form.old,
    new_password: form.password,
  });
  signIn(user);
  return user;
}

/** Ends the session on the server (in the background) and forgets the user here at once. */
export function logOut(): void {
  post('/api/auth/logout', {}, { loading: false }).catch((failure: unknown) => {
    console.error('Logout on the server failed', failure);
  });
  signOut();
}
