import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { masterLevel, putUserAudio, testToneWav } from './player-fixtures.ts'

// Publishing: a creator publishes a track they made, anyone plays it from the public
// URL in a fresh browser, on /song/{slug} and /user/{username}; follows change both profiles'
// counts; the server refuses what it must. Each test signs up its own users.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** Puts tracks the user "made" into the Library as Save to Library does (audio in IndexedDB). */
async function seedLibrary(page: Page, tracks: { id: string; title: string; bytes: number[]; type: string }[]) {
  await putUserAudio(page, tracks)
  await page.evaluate(
    (list) => {
      const userTracks = list.map((t) => ({
        id: t.id,
        title: t.title,
        artist: 'Me',
        duration: '0:08',
        image: '/images/covers/ai-generated.svg',
        audioUrl: `idb:${t.id}`,
        genre: 'jazz',
      }))
      localStorage.setItem('cube-library', JSON.stringify({ state: { userTracks, view: 'list' }, version: 1 }))
    },
    tracks.map(({ id, title }) => ({ id, title })),
  )
  await page.reload()
}

/** The signed-in user's access token, as supabase-js keeps it. */
const accessToken = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token
  })

const rest = (token?: string) => ({
  apikey: LOCAL_ANON_KEY,
  Authorization: `Bearer ${token ?? LOCAL_ANON_KEY}`,
  'Content-Type': 'application/json',
})

async function axeAt(page: Page, widths: number[]) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    await expectNoSeriousA11yViolations(page)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

async function signUpIn(page: Page, prefix: string) {
  const id = unique()
  const username = `${prefix}${id}`
  await signUpByApi(page, { username, email: `${prefix}-${id}@example.com`, password: 'publish-pass-1' })
  await page.goto('/app/library')
  await expect(page.getByTestId('account-email')).toBeVisible()
  return username
}

test('an audio file the user owns joins the Library ready to publish; a bad file and a too-short track are refused in words', async ({
  page,
}) => {
  await signUpIn(page, 'maker')
  await seedLibrary(page, [
    { id: 'short-take', title: 'Short Take', bytes: [...testToneWav(3, 330)], type: 'audio/wav' },
    { id: 'bad-take', title: 'Bad Take', bytes: [...Buffer.from('not audio at all '.repeat(50))], type: 'audio/wav' },
  ])

  await test.step('an audio file the user owns joins the Library, ready to publish', async () => {
    await page.getByLabel('Add audio file').setInputFiles({ name: 'Upload Take.wav', mimeType: 'audio/wav', buffer: testToneWav(6, 440) })
    await expect(toast(page, 'Added “Upload Take” to your Library')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Publish Upload Take' })).toBeVisible()
  })

  await test.step('a bad file and an over-limit track are refused with a clear message', async () => {
    await page.getByRole('button', { name: 'Publish Bad Take' }).click()
    const dialog = page.getByTestId('publish-dialog')
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click()
    await expect(dialog.getByRole('alert')).toHaveText('This file is not audio the browser can read, so it cannot be published.')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page.getByRole('button', { name: 'Publish Short Take' }).click()
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click()
    await expect(dialog.getByRole('alert')).toHaveText('A published track must last 5 s to 10 minutes; this one lasts 3 s.')
    await dialog.getByRole('button', { name: 'Close' }).click()
  })
})

test('publish: a made track plays from its public URL in a new browser, on its page and in Library; only its maker unpublishes', async ({
  page,
  browser,
}) => {
  // Two accounts, a fresh browser, an Opus encode and ~10 page loads: over 60 s (the default)
  // while the other workers render audio.
  test.setTimeout(90_000)
  const creator = await signUpIn(page, 'maker')
  const title = `Night Bus ${unique()}`
  await seedLibrary(page, [{ id: 'my-take', title: 'My Take', bytes: [...testToneWav(8, 330)], type: 'audio/wav' }])

  let slug = ''
  await test.step('publish: title, genre, generated cover → in the Library’s Published list', async () => {
    await page.getByRole('button', { name: 'Publish My Take' }).click()
    const dialog = page.getByTestId('publish-dialog')
    await dialog.getByLabel('Title').fill(title)
    await dialog.getByLabel('Genre').selectOption('jazz')
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click()
    const link = dialog.getByRole('link', { name: 'Open its page' })
    await expect(link).toBeVisible({ timeout: 20_000 })
    slug = (await link.getAttribute('href'))!.replace('/song/', '')
    expect(slug).toMatch(/^night-bus-[a-z0-9]+$/)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(page.getByTestId('published-track')).toHaveText(new RegExp(title))
  })

  const rows = (await (
    await page.request.get(`/rest/v1/songs?slug=eq.${slug}&select=id,audio_url,cover_url,artist,genre`, { headers: rest() })
  ).json()) as { id: string; audio_url: string; cover_url: string; artist: string; genre: string }[]
  expect(rows).toHaveLength(1)
  const song = rows[0]!
  expect(song).toMatchObject({ artist: creator, genre: 'jazz' })
  expect(song.audio_url).toMatch(/^\/storage\/v1\/object\/public\/published-audio\/[0-9a-f-]+\/[0-9a-f-]+\.webm$/)

  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  await test.step('a fresh browser decodes the public Opus file (8 s of the 330 Hz tone) and plays it on /song/{slug}', async () => {
    await visitor.goto(`/song/${slug}`)
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(visitor.getByTestId('song-artist')).toHaveText(creator)
    const measured = await visitor.evaluate(async (url) => {
      const res = await fetch(url)
      const bytes = await res.arrayBuffer()
      const ranged = await fetch(url, { headers: { Range: 'bytes=0-99' } })
      const audio = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(bytes.slice(0))
      const data = audio.getChannelData(0)
      let sum = 0
      let crossings = 0
      for (let i = 1; i < data.length; i++) {
        sum += data[i]! * data[i]!
        if (data[i - 1]! < 0 && data[i]! >= 0) crossings++
      }
      return {
        type: res.headers.get('content-type'),
        size: bytes.byteLength,
        ranged: ranged.status,
        rangedLength: (await ranged.arrayBuffer()).byteLength,
        seconds: audio.duration,
        rms: Math.sqrt(sum / data.length),
        crossingsPerSecond: crossings / audio.duration,
      }
    }, song.audio_url)
    expect(measured.type).toBe('audio/webm')
    expect(measured.ranged).toBe(206)
    expect(measured.rangedLength).toBe(100)
    expect(Math.abs(measured.seconds - 8)).toBeLessThan(0.1)
    expect(measured.rms).toBeGreaterThan(0.05)
    // Compressed, not WAV: 8 s at 96 kbit/s is about 96 kB (the WAV was 350 kB).
    expect(measured.size).toBeLessThan(140_000)
    expect(measured.crossingsPerSecond).toBeGreaterThan(300)
    expect(measured.crossingsPerSecond).toBeLessThan(360)
    const cover = await visitor.request.get(song.cover_url)
    expect(cover.headers()['content-type']).toBe('image/png')

    // The page's own Play (the player bar has one too).
    await visitor.getByTestId('song-page').getByRole('button', { name: 'Play', exact: true }).click()
    await expect(visitor.getByTestId('bar-title')).toHaveText(title)
    await expect.poll(() => masterLevel(visitor), { timeout: 10_000 }).toBeGreaterThan(0.01)
    await axeAt(visitor, [1280, 375])
  })

  await test.step('/track/{id} forwards to the song page; the creator’s profile lists it', async () => {
    await visitor.goto(`/track/${song.id}`)
    await expect(visitor).toHaveURL(new RegExp(`/song/${slug}$`))
    await visitor.goto(`/user/${creator}`)
    await expect(visitor.getByRole('list', { name: `Tracks by ${creator}` }).getByRole('link', { name: title })).toBeVisible()
  })

  await test.step('another user cannot unpublish it (server refuses, song stays)', async () => {
    // An account of its own through the auth API: the refusal is the subject, not the sign-in.
    const token = (await signUpByApi(visitor, { prefix: 'other', wallet: false })).accessToken
    const refused = await visitor.request.post('/rest/v1/rpc/unpublish_song', { headers: rest(token), data: { p_song_id: song.id } })
    expect(refused.status()).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toBe('Only the creator of a song can unpublish it.')
    const direct = await visitor.request.delete(`/rest/v1/songs?id=eq.${song.id}`, { headers: rest(token) })
    expect([401, 403]).toContain(direct.status())
    expect((await visitor.request.get(song.audio_url)).status()).toBe(200)
  })

  await test.step('the creator unpublishes: gone from Library, its page and the public URL', async () => {
    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Unpublish' }).click()
    await expect(toast(page, `Unpublished “${title}”`)).toBeVisible()
    await expect(page.getByTestId('published-track')).toHaveCount(0)
    await visitor.goto(`/song/${slug}`)
    await expect(visitor.getByRole('heading', { name: 'Track not found in the metaverse' })).toBeVisible()
    expect((await visitor.request.get(song.audio_url)).status()).toBe(400)
  })
  await visitorContext.close()
})

// Three tests where there was one journey: with two accounts, a visitor, a playlist and ~15 page
// loads it took about 25 s on an idle machine and ran past 90 s on CI's loaded one.
test('profiles: follow and unfollow change the counts on both; nobody makes someone else follow', async ({ page, browser }) => {
  test.setTimeout(90_000)
  const star = await signUpIn(page, 'star')
  const fanContext = await browser.newContext()
  const fan = await fanContext.newPage()
  const fanName = await signUpIn(fan, 'fan')

  const counts = async (p: Page, username: string) => {
    await p.goto(`/user/${username}`)
    await expect(p.getByRole('heading', { level: 1, name: username })).toBeVisible()
    await expect(p.getByTestId('followers-count')).not.toHaveText('...')
    return [await p.getByTestId('followers-count').innerText(), await p.getByTestId('following-count').innerText()]
  }

  await test.step('follow: star has 1 follower, fan follows 1', async () => {
    expect(await counts(fan, star)).toEqual(['0', '0'])
    await fan.getByRole('button', { name: 'Follow' }).click()
    await expect(fan.getByRole('button', { name: 'Unfollow' })).toBeVisible()
    await expect(fan.getByTestId('followers-count')).toHaveText('1')
    expect(await counts(page, star)).toEqual(['1', '0'])
    expect(await counts(page, fanName)).toEqual(['0', '1'])
    await axeAt(page, [1280, 375])
  })

  await test.step('a user cannot make someone else follow (RLS refuses)', async () => {
    const token = await accessToken(fan)
    const starId = (
      (await (await fan.request.get(`/rest/v1/profiles?username=eq.${star}&select=user_id`, { headers: rest() })).json()) as {
        user_id: string
      }[]
    )[0]!.user_id
    const fanId = (
      (await (await fan.request.get(`/rest/v1/profiles?username=eq.${fanName}&select=user_id`, { headers: rest() })).json()) as {
        user_id: string
      }[]
    )[0]!.user_id
    const forced = await fan.request.post('/rest/v1/follows', {
      headers: rest(token),
      data: { follower_id: starId, following_id: fanId },
    })
    expect(forced.status()).toBe(403)
    expect(await counts(page, fanName)).toEqual(['0', '1'])
  })

  await test.step('unfollow: both counts go back', async () => {
    await fan.goto(`/user/${star}`)
    await fan.getByRole('button', { name: 'Unfollow' }).click()
    await expect(fan.getByRole('button', { name: 'Follow' })).toBeVisible()
    await expect(fan.getByTestId('followers-count')).toHaveText('0')
    expect(await counts(page, fanName)).toEqual(['0', '0'])
  })
  await fanContext.close()
})

test('a profile shows the playlists its owner makes public; a visitor cannot publish or follow: asked to sign in', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const star = await signUpIn(page, 'star')
  await test.step('the owner makes a playlist public on their profile', async () => {
    // A playlist in the account (as the Playlists page saves it), with a catalogue song.
    const token = await accessToken(page)
    const created = await page.request.post('/rest/v1/playlists?select=id', {
      headers: { ...rest(token), Prefer: 'return=representation', Accept: 'application/vnd.pgrst.object+json' },
      data: { name: 'Road Trip' },
    })
    const { id } = (await created.json()) as { id: string }
    expect(
      (
        await page.request.post('/rest/v1/playlist_songs', {
          headers: rest(token),
          data: { playlist_id: id, song_id: 'chrome-horizon', position: 0 },
        })
      ).status(),
    ).toBe(201)
    await page.goto(`/user/${star}`)
    await expect(page.getByText('None of your playlists is public yet.')).toBeVisible()
    await page.getByRole('checkbox', { name: 'Road Trip' }).check()
    await expect(page.getByTestId('public-playlist')).toHaveCount(1)
    await expect(page.getByTestId('public-playlist')).toContainText('Road Trip1 trackChrome Horizon · Grid Runners')
  })

  await test.step('a visitor cannot publish or follow: asked to sign in', async () => {
    const context = await browser.newContext()
    const visitor = await context.newPage()
    await visitor.goto('/app/library')
    await seedLibrary(visitor, [{ id: 'v-take', title: 'Visitor Take', bytes: [...testToneWav(6, 220)], type: 'audio/wav' }])
    await visitor.getByRole('button', { name: 'Publish Visitor Take' }).click()
    await expect(toast(visitor, 'Sign in to publish your tracks.')).toBeVisible()
    await expect(visitor.getByTestId('auth-modal')).toBeVisible()
    await expect(visitor.getByTestId('publish-dialog')).toHaveCount(0)
    const rpc = await visitor.request.post('/rest/v1/rpc/publish_song', {
      headers: rest(),
      data: { p_title: 'x', p_genre: 'pop', p_audio_path: 'a/b.webm' },
    })
    expect([401, 403]).toContain(rpc.status())
    await visitor.goto(`/user/${star}`)
    await expect(visitor.getByRole('list', { name: `Public playlists of ${star}` }).getByRole('heading')).toHaveText(['Road Trip'])
    await expect(visitor.getByRole('checkbox')).toHaveCount(0)
    await visitor.getByRole('button', { name: 'Follow' }).click()
    await expect(toast(visitor, `Sign in to follow ${star}.`)).toBeVisible()
    await context.close()
  })
})

test('unknown song and user: the not-found page', async ({ page }) => {
  for (const path of [`/song/no-such-song-${unique()}`, `/user/nobody${unique()}`]) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: 'Track not found in the metaverse' })).toBeVisible()
  }
})
