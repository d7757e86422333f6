{% snapshot customers_snapshot %}
{{ config(target_schema=target.schema, unique_key='id', strategy='check', check_cols=['name', 'email']) }}
select id, name, email from {{ ref('customers') }}
{% endsnapshot %}
