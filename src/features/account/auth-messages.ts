// The exact words users see around signing in; tests and the reference description quote them.
export const AUTH_MESSAGES = {
  loginFailed: 'Login failed',
  loginFailedDescription: 'Please check your credentials and try again',
  loginFailedInline: 'Failed to login. Please check your credentials.',
  loginSuccess: 'Login successful',
  loginSuccessDescription: 'Welcome back!',
  registrationFailed: 'Registration failed',
  registrationFailedDescription: 'There was an error creating your account. Please try again.',
  registrationDisabled: 'Email registration is disabled. Please enable it in the backend dashboard or contact support.',
  registrationSuccess: 'Registration successful',
  registrationSuccessDescription: 'Welcome to CUBE Music! Your wallet is being set up.',
  registrationConfirmDescription: 'Check your e-mail to confirm your account, then log in.',
  logoutSuccess: 'Logged out successfully',
  logoutFailed: 'Logout failed',
} as const
