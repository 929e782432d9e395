import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Grid, Group, Loader, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconMail, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { Pager } from '../../ui/pager';
import type { ParsedQrBill } from '@bilan/domain';
import { deleteFile, fileBlob, fileQuery, filesQuery, mailListQuery, PAGE_SIZE, payablesKey, uploadInboxFile, type UploadResult } from './api';
import { readQrBill } from './qr-decode';
import { BillAddPage } from './bill-add-page';
import { AttachmentLink, receivedAt } from './mail-page';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';
import type { TFunction } from 'i18next';

interface Upload {
  name: string;
  progress: number;
  error?: string;
  /** What the server made of it, e.g. 'Mail 3 with 2 attachments'. */
  result?: string;
}

const describe = (result: UploadResult, t: TFunction): string =>
  'skipped' in result
    ? t('Mail {{id}} with {{count}} attachments', { id: result.mail.id, count: result.mail.files.length }) +
      (result.skipped.length ? ` ${t('(skipped: {{names}})', { names: result.skipped.map((s) => s.name).join(', ') })}` : '')
    : t('Stored');

/**
 * /inbox: drop PDFs, images or .eml mails (several at once, with progress). A file becomes a bill
 * draft; an .eml becomes a pending mail whose attachments are listed with it, each a bill draft.
 */
export function InboxPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The files uploaded on their own (a mail's attachments are listed with the mail), a page at a time.
  const [page, setPage] = useState(1);
  const files = useQuery(filesQuery({ mail: null }, page));
  const mails = useQuery(mailListQuery({ status: 1 }));
  const looseFiles = files.data?.data;
  // Deleting the last file of the last page: show the page before.
  const lastPage = files.data ? Math.max(1, Math.ceil(files.data.total / PAGE_SIZE)) : page;
  if (page > lastPage) setPage(lastPage);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const remove = useMutation({ mutationFn: deleteFile, onSuccess: () => queryClient.invalidateQueries({ queryKey: payablesKey }) });

  const add = async (list: FileList | File[]) => {
    const chosen = [...list];
    const offset = uploads.length;
    setUploads((current) => [...current, ...chosen.map((file) => ({ name: file.name, progress: 0 }))]);
    await Promise.all(
      chosen.map(async (file, i) => {
        const update = (patch: Partial<Upload>) => setUploads((current) => current.map((u, j) => (j === offset + i ? { ...u, ...patch } : u)));
        try {
          const result = await uploadInboxFile(file, (progress) => update({ progress }));
          update({ progress: 1, result: describe(result, t) });
        } catch (error) {
          update({ error: errorMessage(error) });
        }
      }),
    );
    await queryClient.invalidateQueries({ queryKey: payablesKey });
  };

  return (
    <Page
      title={t('Inbox')}
      actions={
        <Button component={Link} to={paths.mails.getHref()} variant="default" leftSection={<IconMail size={16} />}>
          {t('All mail')}
        </Button>
      }
    >
      <Paper
        withBorder
        p="xl"
        radius="md"
        style={{ borderStyle: 'dashed', background: dragging ? 'var(--mantine-color-blue-0)' : undefined }}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void add(event.dataTransfer.files);
        }}
      >
        <Stack align="center" gap="xs">
          <IconUpload size={28} aria-hidden />
          <Text>{t('Drop supplier bills here (PDF, photo or .eml), several at once')}</Text>
          <Button component="label" variant="default">
            {t('Choose files')}
            <input type="file" multiple hidden accept=".pdf,.png,.jpg,.jpeg,.webp,.eml" aria-label={t('Choose files')} onChange={(e) => e.currentTarget.files && void add(e.currentTarget.files)} />
          </Button>
        </Stack>
      </Paper>
      {uploads.length ? (
        <Stack gap={4}>
          {uploads.map((upload, i) => (
            <Group key={`${upload.name}-${i}`} gap="sm" wrap="nowrap">
              <Text size="sm" w={260} truncate>
                {upload.name}
              </Text>
              {upload.error ? (
                <Text size="sm" c="red">
                  {upload.error}
                </Text>
              ) : (
                <Progress value={upload.progress * 100} w={240} aria-label={t('Upload of {{name}}', { name: upload.name })} />
              )}
              {upload.result ? (
                <Text size="sm" c="dimmed">
                  {upload.result}
                </Text>
              ) : null}
            </Group>
          ))}
        </Stack>
      ) : null}
      {mails.isError ? <ErrorAlert what={t('Could not load the mails')} error={mails.error} onRetry={() => void mails.refetch()} /> : null}
      {mails.data?.data.length ? (
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('Pending mails ({{total}})', { total: mails.data.total })}
          </Title>
          <Table withTableBorder striped aria-label={t('Pending mails')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={160}>{t('Received')}</Table.Th>
                <Table.Th w={260}>{t('From')}</Table.Th>
                <Table.Th>{t('Subject')}</Table.Th>
                <Table.Th>{t('Attachments')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mails.data.data.map((mail) => (
                <Table.Tr key={mail.id}>
                  <Table.Td>{receivedAt(mail.receivedAt)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" truncate maw={250}>
                      {mail.from}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.mailDetail.getHref(mail.id)}>
                      {mail.subject || t('(no subject)')}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {mail.files.map((file) => (
                        <AttachmentLink key={file.uuid} file={file} />
                      ))}
                      {mail.files.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          {t('none')}
                        </Text>
                      ) : null}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ) : null}
      {files.isError ? <ErrorAlert what={t('Could not load the inbox')} error={files.error} onRetry={() => void files.refetch()} /> : null}
      {remove.isError ? <ErrorAlert what={t('Could not delete the file')} error={remove.error} /> : null}
      {!files.data && !files.isError ? <TableSkeleton /> : null}
      {looseFiles?.length === 0 && mails.data?.data.length === 0 ? <Text c="dimmed">{t('The inbox is empty.')}</Text> : null}
      {looseFiles?.length ? (
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('Files')}
          </Title>
          <Table withTableBorder striped aria-label={t('Files')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('File')}</Table.Th>
                <Table.Th w={120}>{t('Received')}</Table.Th>
                <Table.Th w={100}>{t('Size')}</Table.Th>
                <Table.Th w={160}>{t('Bill')}</Table.Th>
                <Table.Th w={90} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {looseFiles.map((file) => (
                <Table.Tr key={file.uuid}>
                  <Table.Td>
                    <Anchor component={Link} to={`/inbox/${file.uuid}`}>
                      {file.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDate(file.createdAt.slice(0, 10))}</Table.Td>
                  <Table.Td>{Math.max(1, Math.round(file.size / 1024))} KB</Table.Td>
                  <Table.Td>{file.payable ? <Badge variant="light">{t('Bill {{id}}', { id: file.payable.id })}</Badge> : <Text size="sm" c="dimmed">{t('to process')}</Text>}</Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="subtle" color="red" onClick={() => remove.mutate(file.uuid)}>
                      {t('Delete')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {files.data ? <Pager page={page} pageSize={PAGE_SIZE} total={files.data.total} capped={files.data.totalCapped} onChange={setPage} /> : null}
        </Stack>
      ) : null}
    </Page>
  );
}

/** What the file page knows about its file: its preview URL and the QR-bill read from it, if any. */
interface Reading {
  url: string;
  qrBill: ParsedQrBill | null;
  /** Why no QR-bill could be read (the file still becomes a draft to fill by hand). */
  failure?: string;
}

/**
 * /inbox/{uuid}: the file beside a bill draft; saving attaches the file. A PDF or image carrying a
 * Swiss QR-bill prefills the draft (creditor, IBAN, amount, currency, reference, message).
 */
export function InboxFilePage() {
  const { t } = useTranslation();
  const uuid = useParams()['*'] ?? '';
  const files = useQuery(fileQuery(uuid));
  const file = files.data?.data[0];
  const mimeType = file?.mimeType;
  const [reading, setReading] = useState<Reading | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!mimeType) return;
    let current: string | null = null;
    let cancelled = false;
    fileBlob(uuid).then(
      async (blob) => {
        const url = URL.createObjectURL(blob);
        current = url;
        let next: Reading;
        try {
          next = { url, qrBill: await readQrBill(blob, mimeType) };
        } catch (failure) {
          next = { url, qrBill: null, failure: errorMessage(failure) };
        }
        if (!cancelled) setReading(next);
      },
      (failure: unknown) => setError(failure),
    );
    return () => {
      cancelled = true;
      if (current) URL.revokeObjectURL(current);
    };
  }, [uuid, mimeType]);
  const url = reading?.url;

  return (
    <Grid>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <Paper withBorder radius="md" h="80vh" style={{ overflow: 'hidden' }}>
          {error ? <ErrorAlert what={t('Could not show the file')} error={error} /> : null}
          {url && file?.mimeType.startsWith('image/') ? <img src={url} alt={file.name} style={{ width: '100%' }} /> : null}
          {url && file && !file.mimeType.startsWith('image/') ? <iframe title={file.name} src={url} style={{ width: '100%', height: '100%', border: 0 }} /> : null}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 7 }}>
        {file?.mail ? (
          <Text size="sm" c="dimmed" mb="xs">
            <Trans
              t={t}
              i18nKey={msg('Attachment of <a>mail {{id}}</a>: saving the bill marks the mail processed.')}
              values={{ id: file.mail.id }}
              components={{ a: <Anchor component={Link} to={paths.mailDetail.getHref(file.mail.id)} size="sm" /> }}
            />
          </Text>
        ) : null}
        {file?.payable ? (
          <Text size="sm" c="orange" mb="xs">
            {t('This file is already the voucher of bill {{id}}.', { id: file.payable.id })}
          </Text>
        ) : null}
        {reading || error ? (
          <>
            {reading?.failure ? <Text size="sm" c="dimmed">{t('Could not look for a QR-bill: {{error}}', { error: reading.failure })}</Text> : null}
            <BillAddPage key={reading?.qrBill ? 'qr' : 'plain'} fileUuid={uuid} qrBill={reading?.qrBill ?? null} title={file ? t('Bill from {{name}}', { name: file.name }) : t('Bill from file')} />
          </>
        ) : (
          <Group gap="sm" p="md">
            <Loader size="sm" />
            <Text size="sm">{t('Looking for a QR-bill…')}</Text>
          </Group>
        )}
      </Grid.Col>
    </Grid>
  );
}
