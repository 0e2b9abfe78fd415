import { Input, Text, View } from '@tarojs/components';
import type { ReactNode } from 'react';
import './shop.css';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  error?: string;
  placeholder?: string;
  type?: 'text' | 'number' | 'digit';
  maxlength?: number;
  onInput: (value: string) => void;
}

/** A labelled text input with its message right below it. */
export function Field({ label, name, value, error, placeholder, type = 'text', maxlength, onInput }: FieldProps) {
  return (
    <FieldFrame label={label} error={error}>
      <Input
        className="shop-field__input"
        name={name}
        type={type}
        value={value}
        placeholder={placeholder}
        maxlength={maxlength ?? 140}
        onInput={(event) => onInput(event.detail.value)}
      />
    </FieldFrame>
  );
}

export function FieldFrame({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <View className={`shop-field ${error ? 'shop-field--error' : ''}`}>
      <Text className="shop-field__label">{label}</Text>
      {children}
      {error && <Text className="shop-field__error">{error}</Text>}
    </View>
  );
}
