export default definePageConfig({ navigationBarTitleText: 'New followers', onReachBottomDistance: 200 });
