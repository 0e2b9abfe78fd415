import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { failureMessage } from '@/features/goods/api';
import {
  FRAMES_FAILED,
  type FrameChoice,
  SHARE_FAILED,
  loadFrameChoices,
  pickPhoto,
  savePicture,
  shareTryOn,
  tryOnFileName,
} from '@/features/tryon/api';
import { TRYON_CANVAS_ID, useTryOn } from '@/features/tryon/use-try-on';
import { ActionButton, FormFailure } from '@/ui/form/Field';
import { FailureLine } from '@/ui/shop/StateView';
import { Canvas, Image, ScrollView, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import '@/ui/form/form.css';
import './tryon.css';

/** The canvas is as wide as the page's cards (24 of 750 design units of margin on each side). */
function canvasWidth(): number {
  return Math.round((Taro.getSystemInfoSync().windowWidth * 702) / 750);
}

function FrameStrip(props: { frames: FrameChoice[]; chosen: string; onChoose: (frame: FrameChoice) => void }) {
  return (
    <ScrollView className="tryon__frames" scrollX enhanced showScrollbar={false}>
      {props.frames.map((frame) => (
        <View
          key={frame.key}
          className={`tryon__frame ${frame.key === props.chosen ? 'tryon__frame--on' : ''}`}
          onClick={() => props.onChoose(frame)}
        >
          <Image className="tryon__frame-image" src={imageUrl(frame.image)} mode="aspectFit" />
          <Text className="tryon__frame-name">{frame.name}</Text>
          <View className="tryon__frame-colour">
            <View className="tryon__swatch" style={{ background: frame.colorValue }} />
            <Text>{frame.colorName}</Text>
          </View>
        </View>
      ))}
    </ScrollView>
  );
}

export default function TryOn() {
  useRouteRecord();
  const user = useSignedInUser();
  const { params } = useRouter();
  const goodsId = Number(params.id) || 0;
  const colorId = Number(params.color_id) || 0;
  const [frames, setFrames] = useState<FrameChoice[] | null>(null);
  const [framesFailure, setFramesFailure] = useState('');
  const [chosen, setChosen] = useState<FrameChoice | null>(null);
  const [shared, setShared] = useState('');
  const [shareProblem, setShareProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const tryOn = useTryOn();

  const [attempt, setAttempt] = useState(0);
  const token = user?.token;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the shopper taps Try again
  useEffect(() => {
    if (!token) return;
    setFramesFailure('');
    loadFrameChoices(goodsId, colorId).then(
      (choices) => {
        setFrames(choices);
        setChosen(choices[0] ?? null);
      },
      (failure: unknown) => setFramesFailure(failureMessage(failure, FRAMES_FAILED)),
    );
  }, [token, goodsId, colorId, attempt]);

  if (!user) return null;

  const choosePhoto = async (source: 'camera' | 'album') => {
    const path = await pickPhoto(source);
    if (!path) return;
    setShared('');
    setShareProblem('');
    await tryOn.start(path, chosen);
  };

  const choose = (frame: FrameChoice) => {
    setChosen(frame);
    setShared('');
    void tryOn.dress(frame);
  };

  const withPicture = async (work: (picture: { dataUrl: string; filePath: string }) => Promise<void>) => {
    setBusy(true);
    try {
      await work(await tryOn.picture());
    } finally {
      setBusy(false);
    }
  };

  const save = () =>
    void withPicture(async (picture) => {
      if (chosen) await savePicture(picture.filePath, tryOnFileName(chosen));
    });

  const share = () =>
    void withPicture(async (picture) => {
      if (!chosen) return;
      setShareProblem('');
      try {
        const url = imageUrl(await shareTryOn(tryOnFileName(chosen), picture.dataUrl));
        const link = /^https?:/.test(url) ? url : `${window.location.origin}${url}`;
        setShared(link);
        Taro.setClipboardData({ data: link }).catch(() => undefined);
      } catch (failure) {
        setShareProblem(failureMessage(failure, SHARE_FAILED));
      }
    });

  const { stage } = tryOn;
  const width = canvasWidth();
  const height = tryOn.size ? Math.round((width * tryOn.size.height) / tryOn.size.width) : 0;

  return (
    <View className="tryon">
      <View className="tryon__card">
        <Text className="tryon__title">Virtual try-on</Text>
        <Text className="tryon__text">
          {stage === 'ready'
            ? 'Tap another frame to compare. Save the picture or share it with a link.'
            : 'Take a selfie or choose a photo facing the camera, with both eyes visible and no glasses on.'}
        </Text>
      </View>
      <View className={`tryon__stage ${tryOn.size ? '' : 'tryon__stage--idle'}`}>
        <Canvas
          type="2d"
          id={TRYON_CANVAS_ID}
          canvasId={TRYON_CANVAS_ID}
          className="tryon__canvas"
          style={tryOn.size ? { width: `${width}px`, height: `${height}px` } : { width: '1px', height: '1px' }}
        />
        {stage === 'detecting' && (
          <View className="tryon__overlay">
            <Text>Finding your face…</Text>
          </View>
        )}
      </View>
      {tryOn.message && <FormFailure message={tryOn.message} />}
      <View className="tryon__card">
        <Text className="tryon__subtitle">Frames</Text>
        {framesFailure && <FailureLine message={framesFailure} onRetry={() => setAttempt((times) => times + 1)} />}
        {!frames && !framesFailure && <Text className="tryon__text">Loading the frames…</Text>}
        {frames && <FrameStrip frames={frames} chosen={chosen?.key ?? ''} onChoose={choose} />}
      </View>
      <View className="tryon__actions">
        {stage === 'ready' && (
          <View className="tryon__row">
            <ActionButton label="Save picture" name="save" busy={busy} onClick={save} />
            <ActionButton label="Share" name="share" kind="secondary" busy={busy} onClick={share} />
          </View>
        )}
        {shared && (
          <View className="tryon__shared">
            <Text className="tryon__shared-label">Your picture is online (link copied):</Text>
            <Text className="tryon__shared-link" selectable>
              {shared}
            </Text>
          </View>
        )}
        <FormFailure message={shareProblem} />
        <ActionButton
          label={tryOn.size ? 'Take another photo' : 'Take a photo'}
          name="camera"
          kind={stage === 'ready' ? 'secondary' : 'primary'}
          busy={stage === 'detecting'}
          onClick={() => void choosePhoto('camera')}
        />
        <ActionButton
          label="Choose from album"
          name="album"
          kind="secondary"
          busy={stage === 'detecting'}
          onClick={() => void choosePhoto('album')}
        />
      </View>
    </View>
  );
}
