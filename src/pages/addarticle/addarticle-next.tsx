import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { type Block, checkDraft, draftAtom } from '@/features/article/draft';
import { useMediaUpload } from '@/features/article/use-media-upload';
import { pickImages, pickVideo } from '@/features/social/media';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { Image, Text, Textarea, Video, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtom } from 'jotai';
import '@/features/social/social.css';
import '@/features/article/editor.css';

export default function AddArticleNext() {
  useRouteRecord();
  const user = useSignedInUser();
  const [draft, setDraft] = useAtom(draftAtom);
  const media = useMediaUpload();

  if (!user) return null;

  const setBlocks = (change: (blocks: Block[]) => Block[]) =>
    setDraft((current) => ({ ...current, blocks: change(current.blocks) }));
  const setText = (index: number, text: string) =>
    setBlocks((blocks) => blocks.map((block, at) => (at === index ? { kind: 'text', text } : block)));
  const remove = (index: number) => setBlocks((blocks) => blocks.filter((_, at) => at !== index));
  const move = (index: number, by: -1 | 1) =>
    setBlocks((blocks) => {
      const target = index + by;
      if (target < 0 || target >= blocks.length) return blocks;
      const copy = [...blocks];
      [copy[index], copy[target]] = [copy[target], copy[index]];
      return copy;
    });

  const addImages = async () => {
    const urls = await media.uploadAll(await pickImages(9));
    if (urls.length > 0)
      setBlocks((blocks) => [
        ...blocks,
        ...urls.map((url): Block => ({ kind: 'image', url })),
        { kind: 'text', text: '' },
      ]);
  };

  const addVideo = async () => {
    const picked = await pickVideo();
    if (!picked) return;
    const [url] = await media.uploadAll([picked]);
    if (url) setBlocks((blocks) => [...blocks, { kind: 'video', url }, { kind: 'text', text: '' }]);
  };

  const preview = () => {
    if (media.uploading) {
      void Taro.showToast({ title: 'Images are still uploading', icon: 'none' });
      return;
    }
    const problem = checkDraft(draft);
    if (problem) {
      void Taro.showToast({ title: problem, icon: 'none', duration: 2500 });
      return;
    }
    void openPage(SOCIAL_PAGES.preview);
  };

  return (
    <View className="social-page addarticle">
      <View className="social-card">
        <Text className="social-card__title">{draft.title || 'Untitled article'}</Text>
        {draft.blocks.map((block, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity of their own; their place is it
          <View key={index} className="addarticle__block">
            {block.kind === 'text' && (
              <Textarea
                className="social-textarea"
                name={`paragraph-${index}`}
                value={block.text}
                maxlength={5000}
                autoHeight
                placeholder="Write a paragraph"
                onInput={(event) => setText(index, event.detail.value)}
              />
            )}
            {block.kind === 'image' && (
              <Image className="addarticle__block-media" src={imageUrl(block.url)} mode="aspectFit" />
            )}
            {block.kind === 'video' && <Video className="addarticle__block-media" src={imageUrl(block.url)} controls />}
            <View className="addarticle__block-tools">
              <Text onClick={() => move(index, -1)}>Up</Text>
              <Text onClick={() => move(index, 1)}>Down</Text>
              <Text onClick={() => remove(index)}>Remove</Text>
            </View>
          </View>
        ))}
      </View>
      <View className="addarticle__toolbar">
        <View
          className="social-button social-button--ghost"
          onClick={() => setBlocks((blocks) => [...blocks, { kind: 'text', text: '' }])}
        >
          <Text>+ Paragraph</Text>
        </View>
        <View
          className={`social-button social-button--ghost ${media.uploading ? 'social-button--busy' : ''}`}
          onClick={addImages}
        >
          <Text>{media.uploading ? 'Uploading…' : '+ Image'}</Text>
        </View>
        <View
          className={`social-button social-button--ghost ${media.uploading ? 'social-button--busy' : ''}`}
          onClick={addVideo}
        >
          <Text>+ Video</Text>
        </View>
      </View>
      <View className="social-button" onClick={preview}>
        <Text>Preview</Text>
      </View>
    </View>
  );
}
