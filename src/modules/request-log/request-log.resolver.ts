import { Arg, Authorized, Ctx, Field, ID, InputType, Int, ObjectType, Query, registerEnumType, Resolver } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { sellerShopId } from '../../platform/graphql/request-scope';
import type { RequestLogContext } from './request-log-context';
import { REQUEST_LOG_RETENTION_DAYS, REQUEST_LOG_SEARCH_MAX_LENGTH, RequestOutcome, requestLogPage, type RequestLogFilter, type RequestLogPage } from './request-log';

registerEnumType(RequestOutcome, {
  name: 'RequestOutcome',
  description: 'Which answers: SUCCEEDED (1xx to 3xx), FAILED (4xx and 5xx), CLIENT_ERROR (4xx), SERVER_ERROR (5xx).',
});

@ObjectType('ApiRequest', { description: "One request of the shop's API key, as the request log keeps it: no bodies, no keys." })
export class ApiRequestView {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The X-Request-Id the answer carried: quote it to support.' }) requestId!: string;
  @Field(() => String, { description: '`rest` (/api/v1) or `graphql` (/graphql).' }) source!: string;
  @Field(() => String) method!: string;
  @Field(() => String, { description: 'The path, without its query string.' }) path!: string;
  @Field(() => String, { nullable: true, description: 'GraphQL: the operation name sent.' }) operationName!: string | null;
  @Field(() => Int, { description: 'The HTTP status answered.' }) status!: number;
  @Field(() => String, { nullable: true, description: "The error's code (docs/integrate.md, section 7)." }) errorCode!: string | null;
  @Field(() => String, { nullable: true, description: "The error's message, as answered." }) errorMessage!: string | null;
  @Field(() => String, { nullable: true }) idempotencyKey!: string | null;
  @Field(() => Int, { description: 'From the request to the end of the answer, in milliseconds.' }) durationMs!: number;
  @Field(() => DateTimeISOResolver) startedAt!: Date;
}

@ObjectType('RequestLogPage')
export class RequestLogPageView {
  @Field(() => [ApiRequestView], { description: 'Newest first.' }) items!: ApiRequestView[];
  @Field(() => String, { nullable: true, description: 'Pass it as `before` for the next, older page; null on the last.' }) nextBefore!: string | null;
}

@InputType('RequestLogFilter', { description: 'Every criterion given must match.' })
export class RequestLogFilterInput implements RequestLogFilter {
  @Field(() => RequestOutcome, { nullable: true }) outcome?: RequestOutcome | null;
  @Field(() => String, { nullable: true, description: `Part of the path (a payment id), or a whole Idempotency-Key or request id; at most ${REQUEST_LOG_SEARCH_MAX_LENGTH} characters.` })
  text?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Started at or after.' }) createdFrom?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Started before.' }) createdTo?: Date | null;
}

/** The shop's request log (docs/dashboard.md, "Request log"): its key's own requests only, for its key and its seller's session. */
@Resolver()
export class RequestLogResolver {
  @Authorized('SELLER')
  @Query(() => RequestLogPageView, { description: `The shop's API requests of the last ${REQUEST_LOG_RETENTION_DAYS} days, newest first.` })
  requestLog(
    @Arg('filter', () => RequestLogFilterInput, { nullable: true }) filter: RequestLogFilterInput | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 20.' }) limit: number | null,
    @Arg('before', () => String, { nullable: true, description: "A page's `nextBefore`." }) before: string | null,
    @Ctx() context: RequestLogContext,
  ): Promise<RequestLogPage> {
    return requestLogPage(context.em, sellerShopId(context), filter ?? {}, limit, before);
  }
}
