import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Loader, Tooltip } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import { IconMicrophone, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatReferenceNumber } from '@bilan/domain';
import { useDebouncedValue } from '@mantine/hooks';
import { api } from '../../lib/api';
import { matchPages, PAGES, parseCommand, voiceIntent, type Command, type PaletteLink } from './commands';
import { PALETTE_SHORTCUT, paletteActions, paletteStore } from './palette-store';


type SpeechRecognitionLike = {
  lang: string;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start: () => void;
  stop: () => void;
};
type SpeechRecognitionCtor = new () => SpeechRecognitionLike;

/** The browser's speech recognition (Web Speech API), when it has one: Chrome names it webkitSpeechRecognition. */
function speechRecognition(): SpeechRecognitionCtor | undefined {
  const w = window as unknown as { SpeechRecognition?: SpeechRecognitionCtor; webkitSpeechRecognition?: SpeechRecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

function say(text: string): void {
  if (typeof window.speechSynthesis === 'undefined') return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = 'en-US';
  window.speechSynthesis.speak(utterance);
}

/** The quick jump a command names directly, without asking the server. */
function directLink(command: Command): PaletteLink | null {
  if (command.kind === 'transactionGroup') return { label: `Transaction group TG${command.id}`, href: `/transaction-group/${command.id}/detail` };
  if (command.kind === 'entry') return { label: `Journal entry EN${command.id}`, href: `/accounting/entry/${command.id}/detail` };
  return null;
}

/**
 * The command palette (spec §2.10, issue 17 §1–§2): Ctrl/Cmd+K, 'Type a command or search...',
 * quick jumps INV{n} / TG{n} / EN{n}, 'CO {text}' for up to 10 companies, the page list, and a
 * microphone for voice navigation where the browser has speech recognition (en-US): it says
 * 'taking you to …' and goes; 'close' closes.
 */
export function CommandPalette() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [listening, setListening] = useState(false);
  const [heard, setHeard] = useState<string | null>(null);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const command = parseCommand(query);

  const invoice = useQuery({
    queryKey: ['palette', 'invoice', command.kind === 'invoice' ? command.number : null],
    enabled: command.kind === 'invoice',
    retry: false,
    queryFn: ({ signal }) => api.post('/api/invoice/detail', { id: command.kind === 'invoice' ? command.number : 0 }, { signal }),
  });
  const companies = useQuery({
    queryKey: ['palette', 'companies', command.kind === 'company' ? command.text : ''],
    enabled: command.kind === 'company',
    queryFn: ({ signal }) => api.post('/api/company/list', { filters: { text: command.kind === 'company' ? command.text : '' }, pageSize: 10 }, { signal }),
  });

  // Beyond the spec (issue 17 §1): documents and entries by number, amount, reference or text.
  const searchText = command.kind === 'pages' ? command.text.trim() : '';
  const [debouncedSearch] = useDebouncedValue(searchText, 200);
  const documents = useQuery({
    queryKey: ['palette', 'search', debouncedSearch],
    enabled: debouncedSearch.length >= 2,
    retry: false,
    queryFn: async ({ signal }) => {
      const [{ hitLabel }, answer] = await Promise.all([import('./hit-label'), api.get('/api/search', { query: { q: debouncedSearch }, signal })]);
      return { hits: answer.data, hitLabel };
    },
  });
  const KIND_LABEL = { invoice: t('Invoice'), bill: t('Bill'), expense: t('Expense'), entry: t('Journal entry') } as const;
  const documentLinks: PaletteLink[] =
    searchText && debouncedSearch === searchText && documents.data
      ? documents.data.hits.map((hit) => ({ label: documents.data.hitLabel(hit, KIND_LABEL[hit.kind]), href: hit.href }))
      : [];

  let links: PaletteLink[];
  if (command.kind === 'invoice') {
    links = invoice.data
      ? [{ label: `Invoice ${invoice.data.refNumber}`, href: `/invoice/${invoice.data.uuid}/detail`, keywords: [invoice.data.company.name] }]
      : [{ label: `Invoices (no invoice ${formatReferenceNumber(command.number)})`, href: '/invoice' }];
    if (invoice.isPending) links = [];
  } else if (command.kind === 'company') {
    links = (companies.data?.data ?? []).slice(0, 10).map((company) => ({ label: company.name, href: `/company/${company.uuid}/ap-ar` }));
  } else {
    const direct = directLink(command);
    // Pages are found by their name in the UI's language as well as by the spec's English one.
    links = direct
      ? [direct]
      : [...matchPages(command.kind === 'pages' ? command.text : '', PAGES.map((page) => ({ ...page, keywords: [...(page.keywords ?? []), t(page.label)] }))), ...documentLinks];
  }
  const loading = (command.kind === 'invoice' && invoice.isPending) || (command.kind === 'company' && companies.isPending);

  const go = (href: string) => {
    paletteActions.close();
    void navigate(href);
  };

  const goByVoice = async (phrase: string) => {
    setHeard(phrase);
    const intent = voiceIntent(phrase);
    if (intent.kind === 'close') return paletteActions.close();
    if (intent.kind === 'unknown') return say(`Sorry, I did not understand ${phrase}`);
    let target: PaletteLink | null = intent.kind === 'page' ? intent.page : directLink(intent.command);
    if (intent.kind === 'go' && intent.command.kind === 'invoice') {
      const n = intent.command.number;
      const found = await api.post('/api/invoice/detail', { id: n }).catch(() => null);
      target = found ? { label: `invoice ${found.refNumber}`, href: `/invoice/${found.uuid}/detail` } : { label: 'the invoices', href: '/invoice' };
    }
    if (!target) return;
    say(`taking you to ${target.label}`);
    go(target.href);
  };

  const SpeechRecognition = speechRecognition();
  const listen = () => {
    if (!SpeechRecognition) return;
    if (listening) return recognition.current?.stop();
    const recognizer = new SpeechRecognition();
    recognizer.lang = 'en-US';
    recognizer.interimResults = false;
    recognizer.maxAlternatives = 1;
    recognizer.onresult = (event) => {
      const phrase = event.results[0]?.[0]?.transcript ?? '';
      if (phrase) void goByVoice(phrase);
    };
    recognizer.onerror = (event) => setHeard(`Voice input failed: ${event.error}`);
    recognizer.onend = () => setListening(false);
    recognition.current = recognizer;
    setListening(true);
    recognizer.start();
  };
  // Closing the palette stops listening.
  useEffect(() => paletteStore.subscribe((state) => {
    if (!state.opened) recognition.current?.stop();
  }), []);

  const microphone = SpeechRecognition ? (
    <Tooltip label={listening ? t('Listening… say e.g. "invoice 12", "open bills" or "close"') : t('Speak a command (English)')}>
      <ActionIcon variant={listening ? 'filled' : 'subtle'} color={listening ? 'red' : 'gray'} aria-label={t('Voice command')} aria-pressed={listening} onClick={listen}>
        <IconMicrophone size={18} />
      </ActionIcon>
    </Tooltip>
  ) : (
    <Tooltip label={t('Voice commands need a browser with speech recognition, such as Chrome or Edge')}>
      <span>
        <ActionIcon variant="subtle" color="gray" aria-label={t('Voice command (not available in this browser)')} disabled>
          <IconMicrophone size={18} />
        </ActionIcon>
      </span>
    </Tooltip>
  );

  return (
    <Spotlight.Root store={paletteStore} query={query} onQueryChange={setQuery} shortcut={[PALETTE_SHORTCUT]} scrollable maxHeight={420}>
      <Spotlight.Search placeholder={t('Type a command or search...')} aria-label={t('Command')} leftSection={<IconSearch size={18} stroke={1.6} />} rightSection={microphone} rightSectionPointerEvents="all" />
      {heard ? (
        <div role="status" style={{ padding: '4px 16px', fontSize: 13, color: 'var(--mantine-color-dimmed)' }}>
          {t('Heard: “{{phrase}}”', { phrase: heard })}
        </div>
      ) : null}
      <Spotlight.ActionsList aria-label={t('Results')}>
        {loading ? (
          <Spotlight.Empty>
            <Loader size="xs" />
          </Spotlight.Empty>
        ) : links.length ? (
          links.map((link) => <Spotlight.Action key={`${link.label}|${link.href}`} label={t(link.label)} description={link.href} onClick={() => go(link.href)} />)
        ) : (
          <Spotlight.Empty>{t('No results found')}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
