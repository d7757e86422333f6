{{ config(materialized='incremental', unique_key='id') }}
select id, customer_id, amount, status, ordered_at, upper(status) as status_code
from {{ ref('stg_orders') }}
{% if is_incremental() %}
where ordered_at > (select max(ordered_at) from {{ this }}) or status = 'pending'
{% endif %}
