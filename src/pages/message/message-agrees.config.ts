export default definePageConfig({ navigationBarTitleText: 'Likes', onReachBottomDistance: 200 });
