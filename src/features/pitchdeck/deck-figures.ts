// The numbers the deck presents, kept apart from the slide markup so they are stated once and tested.

export const REVENUE_STREAMS = [
  { name: 'NFT minting fee', value: '5%', detail: 'of every music NFT minted on CUBE' },
  { name: 'Marketplace fee', value: '2.5%', detail: 'on secondary NFT sales' },
  { name: 'Token transaction fee', value: '0.5%', detail: 'on CUBE transfers and swaps' },
  { name: 'Premium AI', value: '$9.99/month', detail: 'longer, higher-quality AI generations and stem export' },
  { name: 'Production course', value: '$19.99', detail: 'one-off music production course inside the studio' },
] as const

// The distribution is the whitepaper's too: stated once in src/config/tokenomics.ts.
export { TOKEN_DISTRIBUTION, type TokenShare } from '../../config/tokenomics.ts'

export const EARNING_EXAMPLES = [
  { action: 'Create a track', reward: '50 CUBE' },
  { action: 'Community participation', reward: '25 CUBE per week' },
] as const

export const CHAINS = ['Ethereum', 'Polygon'] as const

export const FEATURES = [
  { name: 'AI Music Generator', text: 'Describe a mood, style and tempo; get a multi-track song you can keep editing.' },
  { name: 'Live Mixer', text: 'Per-track volume, pan, EQ and effects running live in the browser, plus microphone recording.' },
  { name: 'NFT Minting', text: 'Mint finished tracks as music NFTs on Ethereum or Polygon with on-chain royalty splits.' },
  { name: 'Listen-to-Earn', text: 'Listeners earn CUBE for real listening time, credited by the server, not the client.' },
  { name: 'Social Sharing', text: 'Share tracks and profiles with links and QR codes; shares and comments earn CUBE too.' },
  { name: 'Remix Studio', text: 'Burn CUBE to remix any track; the original artist is credited and paid automatically.' },
] as const

export const ROADMAP = [
  { quarter: 'Q1 2024', title: 'Beta launch', points: ['Listen-to-earn rewards', 'Catalogue, queue and playlists', 'Cyberpunk themes'] },
  { quarter: 'Q2 2024', title: 'Community', points: ['Comments and sharing rewards', 'CUBE wallet', 'Creator profiles'] },
  {
    quarter: 'Q3 2024',
    title: 'Creation',
    points: ['AI music generator', 'Live mixer and recording', 'Remix studio', 'Whitepaper 2.0 (July)'],
  },
  {
    quarter: 'Q4 2024',
    title: 'Ownership',
    points: ['NFT minting on Ethereum and Polygon', 'Governance voting', 'Premium AI and production course'],
  },
] as const

export const SLIDE_TITLES = [
  'CUBE Music',
  'The Problem',
  'Our Solution',
  'Market Opportunity',
  'Product Features',
  'Business Model',
  'Tokenomics',
  'Technology',
  'Roadmap',
  'Join the Revolution',
] as const

export const BUSINESS_MODEL_SLIDE = SLIDE_TITLES.indexOf('Business Model')
export const CONTACT_MAILTO = 'mailto:hello@cube.music?subject=CUBE%20Music%20investment'
