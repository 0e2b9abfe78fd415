import { Input, Text, Textarea, View } from '@tarojs/components';
import type { ReactNode } from 'react';
import './form.css';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
  password?: boolean;
  type?: 'text' | 'number' | 'digit';
  maxlength?: number;
  hint?: string;
  multiline?: boolean;
  onBlur?: () => void;
  onConfirm?: () => void;
}

/** A labelled input with its error message right under it (the message replaces the hint). */
export function Field(props: FieldProps) {
  const { label, name, value, onChange, error, placeholder, password, type = 'text', maxlength = 140, hint } = props;
  return (
    <View className={`form-field ${error ? 'form-field--error' : ''}`}>
      <Text className="form-field__label">{label}</Text>
      {props.multiline ? (
        <Textarea
          className="form-field__textarea"
          name={name}
          value={value}
          placeholder={placeholder}
          maxlength={maxlength}
          onInput={(event) => onChange(event.detail.value)}
          onBlur={props.onBlur}
        />
      ) : (
        <Input
          className="form-field__input"
          name={name}
          type={type}
          password={password}
          value={value}
          placeholder={placeholder}
          maxlength={maxlength}
          onInput={(event) => onChange(event.detail.value)}
          onBlur={props.onBlur}
          onConfirm={props.onConfirm}
        />
      )}
      {error ? (
        <Text className="form-field__error">{error}</Text>
      ) : (
        hint && <Text className="form-field__hint">{hint}</Text>
      )}
    </View>
  );
}

/** The white rounded card that holds a form or a list. */
export function FormCard({ children }: { children: ReactNode }) {
  return <View className="form-card">{children}</View>;
}

/** A full-width primary (or secondary / danger) button drawn as a View so it looks the same everywhere. */
export function ActionButton(props: {
  label: string;
  onClick: () => void;
  kind?: 'primary' | 'secondary' | 'danger';
  busy?: boolean;
  name?: string;
}) {
  const { label, onClick, kind = 'primary', busy } = props;
  return (
    <View
      className={`action-button action-button--${kind} ${busy ? 'action-button--busy' : ''}`}
      data-name={props.name}
      onClick={() => {
        if (!busy) onClick();
      }}
    >
      <Text>{busy ? 'Please wait…' : label}</Text>
    </View>
  );
}

/** A failure of the whole form (not of one field), e.g. the server refused. */
export function FormFailure({ message }: { message: string }) {
  return message ? <Text className="form-failure">{message}</Text> : null;
}
