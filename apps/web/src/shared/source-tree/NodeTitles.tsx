import { ApartmentOutlined, AppstoreOutlined, CloudServerOutlined, VideoCameraFilled } from '@ant-design/icons';
import { Flex, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Camera, Channel, OrgShipTreeNode, Ship } from '@ship-cctv/protocol';
import { useCameraStatus, useShipStatus } from '../../lib/realtime/index.ts';
import { cameraInstanceId, shipDisplayName } from './tree.ts';
import { LinkIcon, SignalDot } from './LinkIcon.tsx';
import { useShipExtra } from './ship-extra.tsx';

/*
 * Each title reads its own STOMP destination: with the virtual tree only rows on screen are
 * mounted, so only they hold subscriptions, which keeps hundreds of ships cheap.
 */

export function OrgTitle({ org }: { org: OrgShipTreeNode }) {
  return (
    <Flex gap={6} align="center">
      <ApartmentOutlined />
      <span>{org.displayName || org.organizationname}</span>
    </Flex>
  );
}

export function ShipTitle({ ship }: { ship: Ship }) {
  const { linkType, quality } = useShipStatus(ship.name);
  const Extra = useShipExtra();
  return (
    // The name takes what the row leaves: all of it, or what a feature's badge (shown only for some
    // ships) does not need.
    <Flex gap={6} align="center" data-ship={ship.id} style={{ maxWidth: 250 }}>
      <LinkIcon linkType={linkType} />
      <SignalDot quality={quality} />
      <Typography.Text ellipsis style={{ minWidth: 0, flex: '0 1 auto' }}>
        {shipDisplayName(ship)}
      </Typography.Text>
      {Extra ? (
        <span style={{ flex: 'none', display: 'inline-flex' }}>
          <Extra ship={ship} />
        </span>
      ) : null}
    </Flex>
  );
}

function CameraStatusIcons({ ship, camera }: { ship: Ship; camera: Camera }) {
  const { t } = useTranslation();
  const status = useCameraStatus(cameraInstanceId(camera, ship), camera.id);
  const onlineText = status.online ? t('sourceTree.online') : t('sourceTree.offline');
  const recordText = status.recording ? t('sourceTree.recording') : t('sourceTree.notRecording');
  return (
    <>
      <span role="img" aria-label={onlineText} title={onlineText} data-online={status.online} style={{ color: status.online ? '#52c41a' : '#bfbfbf' }}>
        <VideoCameraFilled />
      </span>
      <span
        role="img"
        aria-label={recordText}
        title={recordText}
        data-recording={status.recording}
        style={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', background: status.recording ? '#f5222d' : 'transparent', border: `1px solid ${status.recording ? '#f5222d' : '#bfbfbf'}` }}
      />
      {/* The shore recorder's state is its own (it records only while somebody watches). */}
      {status.shore.recording ? (
        <span role="img" aria-label={t('sourceTree.shoreRecording')} title={t('sourceTree.shoreRecording')} data-shore-recording="true" style={{ color: '#f5222d' }}>
          <CloudServerOutlined />
        </span>
      ) : null}
    </>
  );
}

export function ChannelTitle({ ship, channel }: { ship: Ship; channel: Channel }) {
  const single = channel.cameras.length === 1 ? channel.cameras[0] : undefined;
  return (
    <Flex gap={6} align="center" data-channel={channel.id}>
      {/* A multi-camera channel shows its status per camera, on the sub-items. */}
      {single ? <CameraStatusIcons ship={ship} camera={single} /> : <AppstoreOutlined />}
      <span>{channel.name}</span>
    </Flex>
  );
}

export function CameraTitle({ ship, camera }: { ship: Ship; camera: Camera }) {
  return (
    <Flex gap={6} align="center" data-camera={camera.id}>
      <CameraStatusIcons ship={ship} camera={camera} />
      <span>{camera.name}</span>
    </Flex>
  );
}

export function MessageTitle({ message }: { message: 'loading' | 'empty' | 'error' }) {
  const { t } = useTranslation();
  if (message === 'loading') {
    return (
      <Flex gap={6} align="center">
        <Spin size="small" />
        <Typography.Text type="secondary">{t('sourceTree.channelsLoading')}</Typography.Text>
      </Flex>
    );
  }
  return <Typography.Text type={message === 'error' ? 'danger' : 'secondary'}>{t(message === 'error' ? 'sourceTree.channelsFailed' : 'sourceTree.channelsEmpty')}</Typography.Text>;
}
