import { Authorized, Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { currentSession } from '../graphql/auth-checker';
import type { GraphQLContext } from '../graphql/context';
import { liveSessionsOf } from './sessions';

@ObjectType({ description: 'A dashboard sign-in that has not ended (signed out or revoked); it may still time out.' })
export class ActiveSession {
  @Field(() => ID) id!: string;
  @Field(() => DateTimeISOResolver, { description: 'Signed in at.' }) createdAt!: Date;
  @Field(() => DateTimeISOResolver) lastSeenAt!: Date;
  @Field(() => Boolean, { description: 'The session this request came with.' }) current!: boolean;
}

/** The Account screen's list of sessions (docs/dashboard.md); "sign out everywhere" ends them all. */
@Resolver()
export class SessionListResolver {
  @Authorized('SESSION')
  @Query(() => [ActiveSession], { description: "The signed-in seller's live dashboard sessions, newest first." })
  async activeSessions(@Ctx() context: GraphQLContext): Promise<ActiveSession[]> {
    const session = currentSession(context);
    const live = await liveSessionsOf(context.em, session.sellerId, context.services.accounts.sessions);
    return live.map((s) => ({ id: s.id, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, current: s.id === session.sessionId }));
  }
}
