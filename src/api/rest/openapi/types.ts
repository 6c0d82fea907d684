/** The part of OpenAPI 3.1 (and of JSON Schema 2020-12, its schema language) our document uses. */

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

export interface Reference {
  $ref: string;
}

export interface Example {
  summary?: string;
  value: unknown;
}

export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, Example>;
  /** One example as it is sent (an event stream's text). */
  example?: unknown;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: JsonSchema;
  examples?: Record<string, Example>;
}

export interface RequestBody {
  description?: string;
  required: boolean;
  content: Record<string, MediaType>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject | Reference>;
}

export type PathItem = Partial<Record<'get' | 'post', Operation>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }>;
  };
}

export const ref = (kind: 'schemas' | 'responses' | 'parameters' | 'headers', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });
