import { goHome, goTo } from '@/core/navigation';
import { LOGIN_PAGE } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { logOut } from '@/features/account/auth';
import { APP_VERSION, UPDATE_PASSWORD_PAGE } from '@/features/account/profile';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import '@/ui/form/profile.css';

export default function Setting() {
  useRouteRecord();
  const user = useSignedInUser();

  const confirmLogOut = async () => {
    const { confirm } = await Taro.showModal({
      title: 'Log out',
      content: 'Do you want to log out?',
      confirmText: 'Log out',
      cancelText: 'Cancel',
    });
    if (!confirm) return;
    logOut();
    void goHome();
  };

  return (
    <View className="user-basic">
      <View className="user-basic__head">
        <Text className="user-basic__name">Settings</Text>
      </View>
      {user ? (
        <View className="user-basic__card">
          <View className="user-basic__row user-basic__row--link" onClick={() => void goTo('userBasic')}>
            <Text className="user-basic__label">My profile</Text>
            <View className="user-basic__chevron" />
          </View>
          <View
            className="user-basic__row user-basic__row--link"
            onClick={() => void Taro.navigateTo({ url: UPDATE_PASSWORD_PAGE })}
          >
            <Text className="user-basic__label">Change password</Text>
            <View className="user-basic__chevron" />
          </View>
        </View>
      ) : (
        <View className="user-basic__card">
          <View
            className="user-basic__row user-basic__row--link"
            onClick={() => void Taro.navigateTo({ url: LOGIN_PAGE })}
          >
            <Text className="user-basic__label">Sign in</Text>
            <View className="user-basic__chevron" />
          </View>
        </View>
      )}
      <View className="user-basic__card">
        <View className="user-basic__row">
          <Text className="user-basic__label">Version</Text>
          <Text className="user-basic__value">{APP_VERSION}</Text>
        </View>
      </View>
      {user && (
        <View className="user-basic__card">
          <View className="user-basic__row user-basic__row--link" onClick={() => void confirmLogOut()}>
            <Text className="user-basic__label user-basic__label--danger">Log out</Text>
          </View>
        </View>
      )}
    </View>
  );
}
