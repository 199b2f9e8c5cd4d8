// The site dashboard's overview (/dashboard): who is signed in, the plan, credits, where the course
// continues, the community prompt and the next weekly drop. Site only; the embedded home is app._index.
import type { User } from "~/services/accounts/auth.server";
import { community, course, productDrops, users } from "~/services/index.server";

export async function loadDashboardHome(user: User) {
  const [me, courseSummary, communityOverview, nextDropDate] = await Promise.all([
    users.describeMe(user),
    course.getCourseSummary(user.id),
    community.overview(user),
    productDrops.nextDropDate(),
  ]);
  return { me, course: courseSummary, community: communityOverview, drop: { nextDropDate, now: new Date().toISOString() } };
}

export type DashboardHomeData = Awaited<ReturnType<typeof loadDashboardHome>>;
