export default definePageConfig({ navigationBarTitleText: 'Glasses', onReachBottomDistance: 200 });
