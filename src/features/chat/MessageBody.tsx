import { imageUrl } from '@/core/request';
import type { AnyMessage } from '@/messaging';
import { Image, Text, Video, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import { LOCATION_MESSAGE, formatCoordinates, isPlace, showPlace } from './location';
import { chatPlatform } from './platform';

type Payload = Record<string, unknown>;

export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A media URL as the app loads it: a local path or blob while sending, else the uploaded file's URL. */
function mediaUrl(url: unknown): string {
  const text = String(url ?? '');
  return /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : imageUrl(text);
}

function ImageBody({ payload }: { payload: Payload }) {
  return <Image className="chat__image" src={mediaUrl(payload.url)} mode="widthFix" />;
}

/** The full-size image, over the chat. */
export function viewImage(message: AnyMessage): void {
  const url = mediaUrl((message.payload as Payload).url);
  Taro.previewImage({ urls: [url], current: url }).catch(() => undefined);
}

/** A video with its poster: the frame the platform gave or the page drew, or the store's snapshot of the video. */
function VideoBody({ payload }: { payload: Payload }) {
  const video = (payload.video ?? payload) as Payload;
  const thumbnail = payload.thumbnail as Payload | undefined;
  const poster = thumbnail?.url ? mediaUrl(thumbnail.url) : undefined;
  return <Video className="chat__video" src={mediaUrl(video.url)} poster={poster} controls objectFit="contain" />;
}

function AudioBody({ payload }: { payload: Payload }) {
  const [playing, setPlaying] = useState(false);
  const player = useRef<Taro.InnerAudioContext | null>(null);
  useEffect(() => () => player.current?.destroy(), []);
  const toggle = () => {
    if (!player.current) {
      const audio = Taro.createInnerAudioContext();
      audio.src = mediaUrl(payload.url);
      audio.onEnded(() => setPlaying(false));
      audio.onError(() => setPlaying(false));
      player.current = audio;
    }
    if (playing) player.current.pause();
    else player.current.play();
    setPlaying(!playing);
  };
  const seconds = Number(payload.duration ?? 0);
  return (
    <View className="chat__audio" onClick={toggle}>
      <Text className="chat__audio-icon">{playing ? '❚❚' : '▶'}</Text>
      <Text className="chat__text">{seconds > 0 ? `Voice ${duration(seconds)}` : 'Voice message'}</Text>
    </View>
  );
}

function FileBody({ payload }: { payload: Payload }) {
  const name = String(payload.name ?? 'File');
  const dot = name.lastIndexOf('.');
  return (
    <View className="chat__file" onClick={() => chatPlatform.openFile(mediaUrl(payload.url))}>
      <Text className="chat__file-icon">{dot > 0 ? name.slice(dot + 1, dot + 5).toUpperCase() : 'FILE'}</Text>
      <View className="chat__file-text">
        <Text className="chat__file-name">{name}</Text>
        <Text className="chat__file-size">{fileSize(Number(payload.size ?? 0))}</Text>
      </View>
    </View>
  );
}

function LocationBody({ payload }: { payload: Payload }) {
  if (!isPlace(payload)) return <Text className="chat__text">[Location]</Text>;
  return (
    <View className="chat__location" onClick={() => void showPlace(payload)}>
      <View className="chat__location-pin" />
      <View className="chat__file-text">
        <Text className="chat__file-name">{payload.name}</Text>
        <Text className="chat__file-size">{payload.address || formatCoordinates(payload)}</Text>
      </View>
    </View>
  );
}

/** What a message shows inside its bubble, by type. */
export function MessageBody({ message }: { message: AnyMessage }) {
  const payload = message.payload as Payload;
  switch (message.type) {
    case 'text':
      return <Text className="chat__text">{String(payload.text ?? '')}</Text>;
    case 'image':
      return <ImageBody payload={payload} />;
    case 'video':
      return <VideoBody payload={payload} />;
    case 'audio':
      return <AudioBody payload={payload} />;
    case 'file':
      return <FileBody payload={payload} />;
    case LOCATION_MESSAGE:
      return <LocationBody payload={payload} />;
    default:
      return <Text className="chat__text">[{message.type}]</Text>;
  }
}
