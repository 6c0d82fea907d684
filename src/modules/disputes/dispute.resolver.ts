import { PageType } from '../../shared/pagination';
import { Dispute } from './dispute.entity';

/** A page of disputes (the admins' `disputes` list). */
export const DisputeList = PageType(Dispute, 'DisputeList');
