import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { CheckoutStage, PaymentStatus } from '../payments';

/**
 * What the public checkout page may see of a payment: never the customer's e-mail, name or metadata.
 */
@ObjectType({ description: 'The public view of a payment on its hosted checkout page.' })
export class CheckoutView {
  @Field(() => ID) id!: string;
  @Field(() => SafeIntResolver, { description: 'Integer cents.' }) amount!: number;
  @Field(() => String) currency!: string;
  @Field(() => String) shopName!: string;
  @Field(() => PaymentStatus) status!: PaymentStatus;
  @Field(() => CheckoutStage) stage!: CheckoutStage;
  @Field(() => String, {
    nullable: true,
    description:
      'Why the payment failed, as the customer may know it: declined, authentication_failed or processing_error for a card, shop_unavailable or expired otherwise. Never the precise reason (that is on Payment.failureCode, for the seller and admins).',
  })
  failureCode!: string | null;
  @Field(() => String, { nullable: true, description: 'The failure in plain words for the customer.' })
  failureMessage!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Where to send the customer now: return_url with payment_id and status added (completed or failed; cancelled while the shop cannot take payments). In test mode an https return_url on localhost, 127.0.0.1 or [::1] is given as http.',
  })
  redirectUrl!: string | null;
  @Field(() => Boolean, { description: 'False while the shop is inactive or deleted or its seller suspended: card submissions are refused.' })
  acceptingPayments!: boolean;
  @Field(() => String, {
    nullable: true,
    description: "While a 3-D Secure challenge waits at the card issuer's page: our address that sends the customer there (redirect flow).",
  })
  authenticationUrl!: string | null;
}

@ObjectType()
export class CancelCheckoutResult {
  @Field(() => String, { description: 'return_url with payment_id and status=cancelled added (over http in test mode for localhost, 127.0.0.1 or [::1]).' })
  redirectUrl!: string;
}

/** What 3-D Secure 2 asks of the customer's browser (the page reads it from the screen); never stored. */
@InputType()
export class BrowserInput {
  @Field(() => String, { nullable: true, description: 'navigator.language, e.g. en-GB.' }) language?: string | null;
  @Field(() => Int, { nullable: true }) colorDepth?: number | null;
  @Field(() => Int, { nullable: true }) screenHeight?: number | null;
  @Field(() => Int, { nullable: true }) screenWidth?: number | null;
  @Field(() => Int, { nullable: true, description: 'Minutes from UTC, as Date.getTimezoneOffset() gives it.' }) timeZoneOffset?: number | null;
}

/** Card details: used for the one authorization call and then dropped. Never stored or logged. */
@InputType()
export class CardInput {
  @Field(() => String, { description: 'Digits; spaces allowed.' }) number!: string;
  @Field(() => Int) expMonth!: number;
  @Field(() => Int, { description: 'Four digits, e.g. 2030.' }) expYear!: number;
  @Field(() => String) securityCode!: string;
  @Field(() => String, { nullable: true }) nameOnCard?: string | null;
}
