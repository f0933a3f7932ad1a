/** Why a proven open of a shared link paid nothing, as the server recorded it on the link (open_share). */
export const OPEN_NOT_PAID: Readonly<Record<string, string>> = {
  same_client: 'opened from your own network or device',
  linked_account: 'opened by an account linked to yours',
  unknown_client: 'the server could not tell where it was opened from',
  already_credited_today: 'this link has already paid today',
  visitor_already_paid: 'that visitor already paid you today',
  daily_cap: 'you reached today’s limit of paid shares',
  address_cap: 'the visitor’s network reached its daily limit',
}
