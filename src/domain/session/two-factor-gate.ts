// While the login form asks for the second-factor code, the half-signed-in (aal1) session must
// not count as signed in, and session-sync must not end it either: this flag says the form owns it.
let stepUpOwner = false

export const setStepUpInProgress = (on: boolean) => {
  stepUpOwner = on
}
export const stepUpInProgress = () => stepUpOwner
