/**
 * What Taro's React HTML components (@tarojs/components-react, `h5.useHtmlComponents`) take from the Stencil web
 * components, in the H5 build (config/index.ts puts this file in place of `@tarojs/components/lib/react` where
 * components-react imports it): the Stencil wrappers as they are for what the app does not use, and lean ones of
 * our own for the five it does (Textarea, Switch, RichText, Video, Canvas). The first of those on a page brought
 * the Stencil runtime with it, 35 KB gzip, which put the product and article pages over their 40 KB budget
 * (README "Performance"). Each keeps Taro's props and `event.detail` for what the app uses of it. The
 * mini-program and the page tests use Taro's own components; nothing imports this file by name.
 */
import type { CSSProperties, ChangeEvent, FocusEvent, ReactNode, SyntheticEvent } from 'react';
import './html-components.css';

export {
  Ad,
  AdCustom,
  AnimationVideo,
  AnimationView,
  ArCamera,
  Audio,
  AwemeData,
  Block,
  Camera,
  ChannelLive,
  ChannelVideo,
  Checkbox,
  CheckboxGroup,
  CommentDetail,
  CommentList,
  ContactButton,
  CoverImage,
  CoverView,
  CustomWrapper,
  DraggableSheet,
  Editor,
  FollowSwan,
  Form,
  FunctionalPageNavigator,
  GridBuilder,
  GridView,
  InlinePaymentPanel,
  KeyboardAccessory,
  Label,
  Lifestyle,
  Like,
  ListBuilder,
  ListView,
  LivePlayer,
  LivePusher,
  Login,
  Lottie,
  Map,
  MatchMedia,
  MovableArea,
  MovableView,
  NativeSlot,
  NavigationBar,
  Navigator,
  NestedScrollBody,
  NestedScrollHeader,
  OfficialAccount,
  OpenContainer,
  OpenData,
  PageContainer,
  PageMeta,
  PickerView,
  PickerViewColumn,
  Progress,
  Radio,
  RadioGroup,
  RootPortal,
  RtcRoom,
  RtcRoomItem,
  Script,
  ShareElement,
  Slider,
  Slot,
  Snapshot,
  Span,
  Tabs,
  VoipRoom,
  WebView,
} from '@tarojs/components/lib/react/index.js';

type Detail = Record<string, unknown>;
type Handler = (event: SyntheticEvent & { detail: Detail }) => void;

/** Taro's handlers read `event.detail`: the React event carries it. */
function withDetail<E extends SyntheticEvent>(event: E, detail: Detail): E & { detail: Detail } {
  Object.defineProperty(event, 'detail', { value: detail, configurable: true });
  return event as E & { detail: Detail };
}

const classes = (...names: Array<string | undefined | false>) => names.filter(Boolean).join(' ');

interface TextareaProps {
  className?: string;
  style?: CSSProperties;
  name?: string;
  value?: string;
  placeholder?: string;
  /** Taro's default is 140; -1 is no limit. */
  maxlength?: number;
  disabled?: boolean;
  focus?: boolean;
  autoFocus?: boolean;
  onInput?: Handler;
  onFocus?: Handler;
  onBlur?: Handler;
}

export function Textarea(props: TextareaProps) {
  const { maxlength = 140 } = props;
  const blurOrFocus = (handler?: Handler) => (event: FocusEvent<HTMLTextAreaElement>) =>
    handler?.(withDetail(event, { value: event.currentTarget.value }));
  return (
    <textarea
      className={classes('taro-textarea', props.className)}
      style={props.style}
      name={props.name}
      value={props.value ?? ''}
      placeholder={props.placeholder}
      maxLength={maxlength < 0 ? undefined : maxlength}
      disabled={props.disabled}
      // biome-ignore lint/a11y/noAutofocus: Taro's focus prop, used where the page asks for it
      autoFocus={props.focus || props.autoFocus}
      onChange={(event: ChangeEvent<HTMLTextAreaElement>) =>
        props.onInput?.(
          withDetail(event, { value: event.currentTarget.value, cursor: event.currentTarget.selectionEnd }),
        )
      }
      onFocus={blurOrFocus(props.onFocus)}
      onBlur={blurOrFocus(props.onBlur)}
    />
  );
}

interface SwitchProps {
  className?: string;
  checked?: boolean;
  disabled?: boolean;
  color?: string;
  name?: string;
  onChange?: Handler;
}

export function Switch(props: SwitchProps) {
  return (
    <input
      type="checkbox"
      role="switch"
      aria-checked={Boolean(props.checked)}
      className={classes('taro-switch', 'lm-switch', props.className)}
      style={props.color ? ({ '--lm-switch-on': props.color } as CSSProperties) : undefined}
      name={props.name}
      checked={Boolean(props.checked)}
      disabled={props.disabled}
      onChange={(event) => props.onChange?.(withDetail(event, { value: event.currentTarget.checked }))}
    />
  );
}

/** Taro's rich-text nodes: an HTML string (what the app passes), or element and text nodes. */
type RichNode = { type?: 'text'; text?: string; name?: string; attrs?: Record<string, string>; children?: RichNode[] };

/** Element nodes keep only class and style: no attribute of a node list runs anything. */
function renderNodes(nodes: RichNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.text ?? '';
    const Tag = (/^[a-z][a-z0-9]*$/i.test(node.name ?? '') ? node.name : 'div') as 'div';
    const style = node.attrs?.style;
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: a static node list, never reordered
      <Tag key={index} className={node.attrs?.class} style={style ? parseStyle(style) : undefined}>
        {renderNodes(node.children ?? [])}
      </Tag>
    );
  });
}

function parseStyle(style: string): CSSProperties {
  const entries = style
    .split(';')
    .map((rule) => rule.split(':'))
    .filter((parts) => parts.length >= 2 && parts[0].trim())
    .map(([name, ...value]) => [
      name.trim().replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
      value.join(':').trim(),
    ]);
  return Object.fromEntries(entries) as CSSProperties;
}

export function RichText(props: { className?: string; style?: CSSProperties; nodes?: string | RichNode[] }) {
  const className = classes('taro-rich-text', props.className);
  // An HTML string goes in as Taro's own H5 RichText puts it (innerHTML); the app passes sanitized HTML.
  if (typeof props.nodes === 'string') {
    // biome-ignore lint/security/noDangerouslySetInnerHtml: Taro's RichText contract: the nodes are HTML
    return <div className={className} style={props.style} dangerouslySetInnerHTML={{ __html: props.nodes }} />;
  }
  return (
    <div className={className} style={props.style}>
      {renderNodes(props.nodes ?? [])}
    </div>
  );
}

interface VideoProps {
  className?: string;
  style?: CSSProperties;
  id?: string;
  src: string;
  poster?: string;
  controls?: boolean;
  autoplay?: boolean;
  loop?: boolean;
  muted?: boolean;
  objectFit?: 'contain' | 'fill' | 'cover';
  onPlay?: Handler;
  onPause?: Handler;
  onEnded?: Handler;
  onError?: Handler;
}

export function Video(props: VideoProps) {
  const { controls = true, objectFit = 'contain' } = props;
  const fire = (handler?: Handler) => (event: SyntheticEvent<HTMLVideoElement>) => handler?.(withDetail(event, {}));
  return (
    <video
      id={props.id}
      className={classes('taro-video', props.className)}
      style={{ objectFit, ...props.style }}
      src={props.src}
      poster={props.poster}
      controls={controls}
      autoPlay={props.autoplay}
      loop={props.loop}
      muted={props.muted}
      playsInline
      onPlay={fire(props.onPlay)}
      onPause={fire(props.onPause)}
      onEnded={fire(props.onEnded)}
      onError={fire(props.onError)}
    />
  );
}

interface CanvasProps {
  className?: string;
  style?: CSSProperties;
  id?: string;
  canvasId?: string;
  type?: string;
}

/** As Taro's H5 Canvas: a box with the page's id holding a <canvas canvas-id> that fills it. */
export function Canvas(props: CanvasProps) {
  return (
    <div id={props.id} className={classes('taro-canvas', props.className)} style={props.style}>
      <canvas canvas-id={props.canvasId ?? props.id} className="taro-canvas__node" />
    </div>
  );
}
