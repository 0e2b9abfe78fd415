export default definePageConfig({ navigationBarTitleText: 'People', onReachBottomDistance: 200 });
