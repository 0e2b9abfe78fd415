import { imageUrl } from '@/core/request';
import { Image, Text, View } from '@tarojs/components';
import { useState } from 'react';
import type { SaveTo } from '../../../types/api';
import { pickAndUpload } from './api';
import { failureText } from './use-admin';
import './admin.css';

interface ImageStripProps {
  images: string[];
  onChange: (images: string[]) => void;
  saveTo: SaveTo;
  /** How many images the strip holds; 1 for a single image such as a cover. */
  max: number;
  addLabel: string;
  name: string;
}

/** Uploaded images as thumbnails, each removable, with a tile that uploads more through save_goods_media_files. */
export function ImageStrip({ images, onChange, saveTo, max, addLabel, name }: ImageStripProps) {
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState('');

  const add = async () => {
    if (uploading) return;
    setFailure('');
    setUploading(true);
    try {
      const urls = await pickAndUpload(saveTo, Math.min(9, max - images.length));
      onChange(max === 1 ? urls.slice(0, 1) : [...images, ...urls].slice(0, max));
    } catch (error) {
      const text = failureText(error, '');
      // Closing the picker without choosing is not a failure.
      if (text && !/cancel/i.test(text)) setFailure(text);
    } finally {
      setUploading(false);
    }
  };

  return (
    <View className="image-strip" data-name={name}>
      {images.map((url, index) => (
        <View key={url} className="image-strip__item">
          <Image className="image-strip__image" src={imageUrl(url)} mode="aspectFill" />
          <View
            className="image-strip__remove"
            aria-label="Remove image"
            onClick={() => onChange(images.filter((_, other) => other !== index))}
          >
            <Text>×</Text>
          </View>
        </View>
      ))}
      {(images.length < max || max === 1) && (
        <View className="image-strip__add" onClick={() => void add()}>
          <Text className="image-strip__plus">+</Text>
          <Text className="image-strip__add-label">
            {uploading ? 'Uploading…' : images.length && max === 1 ? 'Replace' : addLabel}
          </Text>
        </View>
      )}
      {failure && <Text className="image-strip__failure">{failure}</Text>}
    </View>
  );
}
