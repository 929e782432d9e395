import { useEffect } from 'react';
import { Alert, Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@bilan/domain';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { CenteredLoader } from '../../ui/centered-loader';

/** A heading line ('#' to '###') or a paragraph (its lines joined). */
type Block = { heading: number; text: string } | { heading: 0; text: string };

/** Headings ('#' to '###', one line) and paragraphs of the terms' Markdown; nothing else is interpreted (no HTML). */
export function markdownBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ heading: 0, text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ heading: heading[1]!.length, text: heading[2]! });
    } else if (!line) flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

function MarkdownBlocks({ text }: { text: string }) {
  return (
    <>
      {markdownBlocks(text).map((block, index) =>
        block.heading ? (
          <Title key={index} order={block.heading === 1 ? 1 : 2} size={block.heading === 1 ? 'h2' : 'h4'} mt={block.heading === 1 ? 0 : 'sm'}>
            {block.text}
          </Title>
        ) : (
          <Text key={index}>{block.text}</Text>
        ),
      )}
    </>
  );
}

/** /terms: the installation's Terms and Conditions, public (the sign-up checkbox opens it in a new tab). */
export function TermsPage() {
  const { t } = useTranslation();
  const terms = useQuery({ queryKey: ['meta', 'terms'], queryFn: ({ signal }) => api.get('/api/meta/terms', { signal }) });
  useEffect(() => {
    document.title = t('Terms and Conditions · Bilan');
  }, [t]);
  return (
    <Container size="sm" py="xl">
      <Paper withBorder radius="md" p="xl">
        {terms.isPending ? <CenteredLoader /> : null}
        {terms.isError ? (
          <Alert color="red" variant="light" title={t('The terms could not be loaded')}>
            {errorMessage(terms.error)}. {t('Reload the page to try again.')}
          </Alert>
        ) : null}
        {terms.data ? (
          <Stack gap="sm">
            <MarkdownBlocks text={terms.data.text} />
            <Text size="sm" c="dimmed" mt="md">
              {t('Last changed {{date}}.', { date: formatDate(terms.data.updated) })} <Anchor href="/login/signup">{t('Back to sign-up')}</Anchor>
            </Text>
          </Stack>
        ) : null}
      </Paper>
    </Container>
  );
}
